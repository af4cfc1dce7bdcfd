import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";

const PASSWORD = "p".repeat(32);
const parse = (env: Record<string, string | undefined>) => {
  const warnings: string[] = [];
  return { config: parseConfig({ SESSION_PASSWORD: PASSWORD, ...env }, (m) => warnings.push(m)), warnings };
};

describe("the store's configuration", () => {
  it("keeps the embedded store in .data of the folder the console starts in, or where DATA_DIR says, or in memory", () => {
    expect(parse({}).config.store).toEqual({ kind: "pglite", dataDir: path.resolve(".data") });
    expect(parse({ DATA_DIR: "/var/lib/switchboard" }).config.store).toEqual({ kind: "pglite", dataDir: "/var/lib/switchboard" });
    expect(parse({ DATA_DIR: "memory://" }).config.store).toEqual({ kind: "pglite", dataDir: "memory://" });
  });

  it("uses PostgreSQL when DATABASE_URL is set, and explains a URL of another kind", () => {
    expect(parse({ DATABASE_URL: "postgres://u:p@db:5432/switchboard", DATA_DIR: "/ignored" }).config.store).toEqual({
      kind: "postgres",
      url: "postgres://u:p@db:5432/switchboard",
    });
    expect(() => parse({ DATABASE_URL: "mysql://db/switchboard" })).toThrow(/DATABASE_URL: must use postgres:\/\/ or postgresql:\/\//);
  });

  it("takes ENCRYPTION_KEYS newest first and refuses a short entry, saying how to make a key", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    expect(parse({ ENCRYPTION_KEYS: `${key}, ${"x".repeat(40)}` }).config.encryptionKeys).toEqual([key, "x".repeat(40)]);
    expect(parse({}).config.encryptionKeys).toEqual([]);
    let message = "";
    try {
      parse({ ENCRYPTION_KEYS: `${key},short` });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain("ENCRYPTION_KEYS entry 2 is shorter than 32 characters");
    expect(message).toContain("randomBytes(32)");
  });

  it("warns in development when neither key source is set: the store's secrets would not outlive the process", () => {
    const warnings: string[] = [];
    parseConfig({ NODE_ENV: "development" }, (m) => warnings.push(m));
    expect(warnings.join("\n")).toContain("cannot be read after a restart");
    expect(parse({}).warnings.join("\n")).not.toContain("cannot be read after a restart");
  });
});
