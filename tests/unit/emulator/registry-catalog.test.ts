/**
 * One registry: the emulator's methods (lib/emulator/web-api/methods) and the explorer's catalog (generated from
 * docs/reference) describe the same methods with the same rate tiers and scopes. A method the emulator adds
 * needs its platform page transcribed into docs/reference/platform-methods (then `npm run catalog`), since the
 * OpenAPI states no tiers and lists one set of scopes for every kind of token.
 */
import { describe, expect, it } from "vitest";
import type { CatalogMethod } from "@/lib/explorer/catalog/types";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import { METHODS } from "@/lib/emulator/web-api/methods";
import type { MethodDefinition } from "@/lib/emulator/types";

const CATALOG = new Map(METHOD_CATALOG.map((method) => [method.name, method]));

/**
 * Methods whose scopes the emulator does not check, with why. rtm.connect exists only for classic apps: the
 * emulator answers every (granular) token with not_allowed_token_type before any scope could matter (spec 4.3, 9).
 */
const SCOPES_NOT_CHECKED: Readonly<Record<string, string>> = {
  "rtm.connect": "answers not_allowed_token_type to every token the emulator issues",
};

const sorted = (scopes: readonly string[] | undefined) => (scopes === undefined ? undefined : [...scopes].sort());

/** The scopes as the catalog writes them, from an emulator definition: which tokens may call it, and with which scopes. */
function registryScopes(definition: MethodDefinition) {
  if (definition.auth === "config") return { tokens: "configuration", bot: [], user: [] };
  const { bot, user } = definition.scopes ?? { bot: [], user: [] };
  if (bot === undefined && user !== undefined) return { tokens: "user", bot: [], user: sorted(user) };
  if (user === undefined && bot !== undefined) return { tokens: "bot", bot: sorted(bot), user: [] };
  return { tokens: undefined, bot: sorted(bot), user: sorted(user) };
}

function catalogScopes(method: CatalogMethod) {
  return { tokens: method.scopes.tokens, bot: sorted(method.scopes.bot), user: sorted(method.scopes.user) };
}

describe("the emulator's method registry and the explorer's catalog", () => {
  it("know every method the emulator answers", () => {
    const missing = [...METHODS.keys()].filter((name) => !CATALOG.has(name));
    expect(missing, "transcribe each method's page into docs/reference/platform-methods, then npm run catalog").toEqual([]);
  });

  it("give each method the emulator answers the tier the catalog documents", () => {
    const tiers = [...METHODS.values()].map((definition) => [definition.name, definition.tier]);
    const documented = [...METHODS.values()].map((definition) => [definition.name, CATALOG.get(definition.name)?.rateTier]);
    expect(tiers).toEqual(documented);
  });

  it("give each method the emulator answers the catalog's scopes, per kind of token", () => {
    const checked = [...METHODS.values()].filter((definition) => SCOPES_NOT_CHECKED[definition.name] === undefined);
    const registry = checked.map((definition) => [definition.name, registryScopes(definition)]);
    const catalog = checked.map((definition) => {
      const method = CATALOG.get(definition.name);
      return [definition.name, method && catalogScopes(method)];
    });
    expect(registry).toEqual(catalog);
    // Scopes per kind of token, not the OpenAPI's one list for every token (which names legacy scopes).
    for (const definition of checked) expect(CATALOG.get(definition.name)?.scopes.byTokenKind, definition.name).toBe(true);
  });

  it("take a JSON body exactly where the catalog says the method does", () => {
    // openid.connect.token takes JSON too: the facts of signing in with the platform say so (the shared reference's sign-in.md), its method page does not.
    const jsonBeyondThePage = new Set(["openid.connect.token"]);
    const registry = [...METHODS.values()].filter((d) => !jsonBeyondThePage.has(d.name)).map((d) => [d.name, d.json === true]);
    const catalog = [...METHODS.values()]
      .filter((d) => !jsonBeyondThePage.has(d.name))
      .map((d) => [d.name, CATALOG.get(d.name)?.encodings.includes("json") ?? false]);
    expect(registry).toEqual(catalog);
    expect(METHODS.get("openid.connect.token")?.json).toBe(true);
  });

  it("leave unchecked only methods that still exist in both, for a stated reason", () => {
    for (const name of Object.keys(SCOPES_NOT_CHECKED)) {
      expect(METHODS.has(name), name).toBe(true);
      expect(CATALOG.has(name), name).toBe(true);
    }
  });

  it("agree on methods taken only with a configuration token or only with a user token", () => {
    expect(registryScopes(METHODS.get("apps.manifest.create")!)).toEqual(catalogScopes(CATALOG.get("apps.manifest.create")!));
    expect(CATALOG.get("apps.manifest.export")?.scopes.configuration).toEqual(["app_configurations:read"]);
    expect(CATALOG.get("openid.connect.userInfo")?.scopes).toMatchObject({ tokens: "user", user: ["openid"] });
    expect(METHODS.get("openid.connect.userInfo")?.scopes).toEqual({ user: ["openid"] });
  });
});
