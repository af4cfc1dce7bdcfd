/** The method registry: every Web API method the emulator answers, by name. */
import type { MethodDefinition } from "../../types";
import { appsMethods } from "./apps";
import { appsManifestMethods } from "./apps-manifest";
import { assistantMethods } from "./assistant";
import { authMethods } from "./auth";
import { bookmarksMethods } from "./bookmarks";
import { botsMethods } from "./bots";
import { chatMethods } from "./chat";
import { chatScheduledMethods } from "./chat-scheduled";
import { chatStreamMethods } from "./chat-stream";
import { conversationsMethods } from "./conversations";
import { filesMethods } from "./files";
import { oauthMethods } from "./oauth";
import { openidMethods } from "./openid";
import { pinsMethods } from "./pins";
import { reactionsMethods } from "./reactions";
import { rtmMethods } from "./rtm";
import { socketModeMethods } from "../../socket-mode/connections-open";
import { teamMethods } from "./team";
import { toolingMethods } from "./tooling";
import { usergroupsMethods } from "./usergroups";
import { usersMethods } from "./users";
import { viewsMethods } from "./views";

export const METHODS: ReadonlyMap<string, MethodDefinition> = new Map(
  [
    ...oauthMethods,
    ...openidMethods,
    ...authMethods,
    ...appsMethods,
    ...appsManifestMethods,
    ...socketModeMethods,
    ...toolingMethods,
    ...usersMethods,
    ...usergroupsMethods,
    ...conversationsMethods,
    ...chatMethods,
    ...chatScheduledMethods,
    ...chatStreamMethods,
    ...assistantMethods,
    ...reactionsMethods,
    ...pinsMethods,
    ...bookmarksMethods,
    ...rtmMethods,
    ...teamMethods,
    ...botsMethods,
    ...viewsMethods,
    ...filesMethods,
  ].map((m) => [m.name, m]),
);
