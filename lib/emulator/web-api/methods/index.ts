/** The method registry: every Web API method the emulator answers, by name. */
import type { MethodDefinition } from "../../types";
import { appsMethods } from "./apps";
import { appsManifestMethods } from "./apps-manifest";
import { authMethods } from "./auth";
import { bookmarksMethods } from "./bookmarks";
import { chatMethods } from "./chat";
import { chatScheduledMethods } from "./chat-scheduled";
import { conversationsMethods } from "./conversations";
import { oauthMethods } from "./oauth";
import { openidMethods } from "./openid";
import { pinsMethods } from "./pins";
import { reactionsMethods } from "./reactions";
import { rtmMethods } from "./rtm";
import { toolingMethods } from "./tooling";
import { usersMethods } from "./users";

export const METHODS: ReadonlyMap<string, MethodDefinition> = new Map(
  [
    ...oauthMethods,
    ...openidMethods,
    ...authMethods,
    ...appsMethods,
    ...appsManifestMethods,
    ...toolingMethods,
    ...usersMethods,
    ...conversationsMethods,
    ...chatMethods,
    ...chatScheduledMethods,
    ...reactionsMethods,
    ...pinsMethods,
    ...bookmarksMethods,
    ...rtmMethods,
  ].map((m) => [m.name, m]),
);
