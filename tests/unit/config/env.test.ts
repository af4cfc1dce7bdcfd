import { readFileSync } from "node:fs";
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD, PHASE_PRODUCTION_SERVER } from "next/constants";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseConfig } from "@/lib/config";
import { checkEnvAtBuild, ConfigError, readEnv } from "@/lib/env";
import nextConfig from "@/next.config";

const CONFIGURATION_DOC = readFileSync(new URL("../../../docs/configuration.md", import.meta.url), "utf8");

/** The variables docs/configuration.md's table names in its first column. */
function documentedVariables(): string[] {
  const firstColumns = CONFIGURATION_DOC.split("\n").flatMap((line) => (/^\| `/.test(line) ? [line.split(" | ")[0]!] : []));
  return firstColumns.flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the environment's format, checked at build", () => {
  it("refuses malformed values, each line naming its variable and what it must be", () => {
    const build = () =>
      checkEnvAtBuild({
        PORT: "eighty",
        APP_ORIGIN: "console.example.com",
        METRICS_TOKEN: "short",
        AUTH_MODE: "password",
        REDIS_URL: "http://cache:6379",
        BACKGROUND_REFRESH: "maybe",
      });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow("Switchboard's configuration is not valid");
    expect(build).toThrow(/ {2}- PORT: /);
    expect(build).toThrow("- APP_ORIGIN: must be an absolute URL such as https://slack.com");
    expect(build).toThrow("- METRICS_TOKEN is shorter than 32 characters");
    expect(build).toThrow("- AUTH_MODE: must be oidc (people sign in with the platform) or none");
    expect(build).toThrow("- REDIS_URL: must use redis:// or rediss://");
    expect(build).toThrow(/ {2}- BACKGROUND_REFRESH: /);
  });

  it("passes a production build with no secret at all: a container's build has none, the start requires them", () => {
    const build = { NODE_ENV: "production", HOST: "0.0.0.0" };
    expect(() => checkEnvAtBuild(build)).not.toThrow();
    const start = () => parseConfig(build);
    expect(start).toThrow("SESSION_PASSWORD is missing");
    expect(start).toThrow("EMULATOR_ADMIN_TOKEN is missing");
  });

  it("is skipped with SKIP_ENV_VALIDATION, as create-t3-app's is, while the start still refuses the same value", () => {
    expect(() => checkEnvAtBuild({ SKIP_ENV_VALIDATION: "1", PORT: "eighty" })).not.toThrow();
    expect(() => parseConfig({ SKIP_ENV_VALIDATION: "1", PORT: "eighty", SESSION_PASSWORD: "p".repeat(32) })).toThrow(/PORT: /);
  });

  it("reads an empty or blank value as unset, and leaves the environment it reads as it was", () => {
    const source = { PORT: "", HOST: "  ", BOT_SCOPES: "" };
    const env = readEnv(source);
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("127.0.0.1");
    // Unset: "Add to workspace" asks for the scopes in the app's configuration (lib/oauth/install-scopes.ts).
    expect(env.BOT_SCOPES).toEqual([]);
    expect(source).toEqual({ PORT: "", HOST: "  ", BOT_SCOPES: "" });
  });

  it("runs when next.config.ts is loaded for `next build` and `next dev`, not for `next start`, which checks it all itself", () => {
    vi.stubEnv("PORT", "eighty");
    expect(() => nextConfig(PHASE_PRODUCTION_BUILD)).toThrow(/PORT: /);
    expect(() => nextConfig(PHASE_DEVELOPMENT_SERVER)).toThrow(/PORT: /);
    expect(nextConfig(PHASE_PRODUCTION_SERVER).poweredByHeader).toBe(false);
    vi.stubEnv("SKIP_ENV_VALIDATION", "1");
    expect(() => nextConfig(PHASE_PRODUCTION_BUILD)).not.toThrow();
  });

  it("declares every variable of docs/configuration.md's table, which names every one it declares", () => {
    const documented = documentedVariables();
    // NODE_ENV is Next.js's to set (development for `next dev`, production for `next build` and `next start`).
    const declared = Object.keys(readEnv({})).filter((name) => name !== "NODE_ENV");
    expect(documented.filter((name) => name !== "SKIP_ENV_VALIDATION").sort()).toEqual(declared.sort());
    expect(documented).toContain("SKIP_ENV_VALIDATION");
  });
});
