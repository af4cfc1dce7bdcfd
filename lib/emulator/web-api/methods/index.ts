/** The method registry: every Web API method the emulator answers, by name. */
import type { MethodDefinition } from "../../types";
import { appsMethods } from "./apps";
import { appsManifestMethods } from "./apps-manifest";
import { authMethods } from "./auth";
import { botsMethods } from "./bots";
import { chatMethods } from "./chat";
import { conversationsMethods } from "./conversations";
import { filesMethods } from "./files";
import { oauthMethods } from "./oauth";
import { openidMethods } from "./openid";
import { rtmMethods } from "./rtm";
import { teamMethods } from "./team";
import { toolingMethods } from "./tooling";
import { usersMethods } from "./users";
import { viewsMethods } from "./views";

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
    ...rtmMethods,
    ...teamMethods,
    ...botsMethods,
    ...viewsMethods,
    ...filesMethods,
  ].map((m) => [m.name, m]),
);
