/**
 * The platform's scopes, as its public scopes page lists them: the emulator's third public entry, apart
 * from index.ts because it is browser-safe (no Node module behind it), so the console's settings page
 * checks a scope with the very list the emulator's consent page and manifest methods check it with.
 * The list is apps/platform-scopes.json, a copy of docs/reference/scopes.json (where its source is named)
 * that the emulator owns, since it imports nothing outside lib/emulator; a test keeps the two alike.
 */
import recorded from "./apps/platform-scopes.json";

/** The kinds of token a scope can be given to, as the page's "Token types" column says. */
export type ScopeTokenType = "bot" | "user" | "app" | "configuration";

export interface PlatformScope {
  name: string;
  description: string;
  tokenTypes: readonly ScopeTokenType[];
}

/** The tokens an install asks scopes for: the authorize URL's `scope` and `user_scope`, a manifest's `bot` and `user`. */
export type InstallTokenKind = "bot" | "user";

export const PLATFORM_SCOPES: readonly PlatformScope[] = recorded.scopes as PlatformScope[];

const BY_NAME = new Map(PLATFORM_SCOPES.map((scope) => [scope.name, scope]));

export function findPlatformScope(name: string): PlatformScope | undefined {
  return BY_NAME.get(name);
}

const KIND_NAMES: Record<ScopeTokenType, string> = { bot: "bot token", user: "user token", app: "app-level token", configuration: "configuration token" };

/**
 * Why a bot or user token cannot be given this scope, or undefined when it can: a name the platform does
 * not know, or one it keeps for other tokens. The platform answers both with `invalid_scope`.
 */
export function scopeProblem(name: string, kind: InstallTokenKind): string | undefined {
  const scope = findPlatformScope(name);
  if (!scope) return `${name} is not a scope the platform knows (see its scopes page, api.slack.com/scopes).`;
  if (scope.tokenTypes.includes(kind)) return undefined;
  const forWhat = scope.tokenTypes.filter((t) => t !== "configuration").map((t) => KIND_NAMES[t]);
  return forWhat.length > 0
    ? `${name} is a scope for ${forWhat.join(" and ")}s, not a ${KIND_NAMES[kind]} scope.`
    : `${name} is not given to a Slack app's bot or user tokens.`;
}
