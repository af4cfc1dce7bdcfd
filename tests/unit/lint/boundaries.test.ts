import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * What may import what is a lint rule, not a convention (eslint.config.mjs): each case lints a file placed
 * where a newcomer might write it, through the project's own configuration, and reads which rule refused it.
 */

const ROOT = path.resolve(__dirname, "../../..");
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

async function problems(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((m) => ({ rule: m.ruleId, message: m.message }));
}

describe("lint boundaries", () => {
  it("refuses a component that loads a server-only module", async () => {
    const found = await problems(
      "components/installations/leaky-card.tsx",
      `import { findInstallation } from "@/lib/installations/repository";\nexport const leak = findInstallation;\n`,
    );
    expect(found).toContainEqual(expect.objectContaining({ rule: "boundaries/no-server-only-in-browser" }));
  });

  it("follows the imports: lib/http's index is not server-only itself, but a component that loads it reaches a server-only module through it, and the refusal says the chain", async () => {
    const found = await problems("components/leaky-error.tsx", `import { AppError } from "@/lib/http";\nexport const e = AppError;\n`);
    const refusal = found.find((p) => p.rule === "boundaries/no-server-only-in-browser");
    expect(refusal?.message).toMatch(/\(lib\/http\/index\.ts( → [\w/.-]+)+\)/);
  });

  it("lets browser code load a domain's universal part, and import types from anywhere", async () => {
    const found = await problems(
      "components/installations/fine-card.tsx",
      [
        `import { lifecycleState } from "@/lib/installations/universal/lifecycle";`,
        `import type { InstallationRecord } from "@/lib/installations/record";`,
        `export const fine: [typeof lifecycleState, InstallationRecord | null] = [lifecycleState, null];`,
        ``,
      ].join("\n"),
    );
    expect(found.filter((p) => p.rule?.startsWith("boundaries/") || p.rule === "import-x/no-restricted-paths")).toEqual([]);
  });

  it("refuses a universal module that starts loading the store, where the browser would reach it", async () => {
    const found = await problems(
      "lib/installations/universal/leaky.ts",
      `import { findInstallation } from "@/lib/installations/repository";\nexport const leak = findInstallation;\n`,
    );
    expect(found).toContainEqual(expect.objectContaining({ rule: "boundaries/no-server-only-in-browser" }));
  });

  it("refuses a page marked use client that loads a server-only module, and lets a server page do it", async () => {
    const code = `import { getConfig } from "@/lib/config";\nexport default function Page() { return getConfig().appOrigin; }\n`;
    const client = await problems("app/leaky/page.tsx", `"use client";\n${code}`);
    expect(client).toContainEqual(expect.objectContaining({ rule: "boundaries/no-server-only-in-browser" }));
    const server = await problems("app/fine/page.tsx", code);
    expect(server.filter((p) => p.rule === "boundaries/no-server-only-in-browser")).toEqual([]);
  });

  it("refuses an emulator module that reads the console's configuration", async () => {
    const found = await problems("lib/emulator/core/leaky.ts", `import { getConfig } from "@/lib/config";\nexport const leak = getConfig;\n`);
    expect(found).toContainEqual(
      expect.objectContaining({ rule: "import-x/no-restricted-paths", message: expect.stringContaining("The emulator imports nothing outside lib/emulator") }),
    );
  });

  it("refuses lib/http and lib/platform importing the session or a domain", async () => {
    const http = await problems(
      "lib/http/leaky.ts",
      `import { readSignedInPerson } from "@/lib/signin/signed-in-cookie";\nexport const leak = readSignedInPerson;\n`,
    );
    expect(http).toContainEqual(expect.objectContaining({ rule: "import-x/no-restricted-paths" }));
    const platform = await problems(
      "lib/platform/leaky.ts",
      `import { findInstallation } from "@/lib/installations/repository";\nexport const leak = findInstallation;\n`,
    );
    expect(platform).toContainEqual(expect.objectContaining({ rule: "import-x/no-restricted-paths" }));
  });

  it("refuses a store module that asks who is reading (lib/access, lib/session) or reads the request (its cookies, next/headers)", async () => {
    const storeRefusal = expect.objectContaining({
      rule: "import-x/no-restricted-paths",
      message: expect.stringContaining("A store module reads neither the viewer nor the request"),
    });
    const access = await problems("lib/store/leaky.ts", `import { currentViewer } from "@/lib/access/viewer";\nexport const leak = currentViewer;\n`);
    expect(access).toContainEqual(storeRefusal);
    const session = await problems(
      "lib/store/leaky.ts",
      `import { getConsoleSession } from "@/lib/session/console-session";\nexport const leak = getConsoleSession;\n`,
    );
    expect(session).toContainEqual(storeRefusal);
    const cookie = await problems(
      "lib/store/leaky.ts",
      `import { readSealedCookie } from "@/lib/http/sealed-cookie";\nexport const leak = readSealedCookie;\n`,
    );
    expect(cookie).toContainEqual(storeRefusal);
    const headers = await problems("lib/store/leaky.ts", `import { cookies } from "next/headers";\nexport const leak = cookies;\n`);
    expect(headers).toContainEqual(expect.objectContaining({ rule: "no-restricted-imports", message: expect.stringContaining("does not read the request") }));
    const lazy = await problems("lib/store/leaky.ts", `export const leak = async () => (await import("next/headers")).cookies();\n`);
    expect(lazy).toContainEqual(expect.objectContaining({ rule: "no-restricted-syntax", message: expect.stringContaining("does not read the request") }));
  });

  it("lets a store module import the wire's errors, and lets lib/access read the request", async () => {
    const store = await problems("lib/store/fine.ts", `import { AppError } from "@/lib/http/app-error";\nexport const fine = AppError;\n`);
    expect(store.filter((p) => p.rule === "import-x/no-restricted-paths" || p.rule?.startsWith("no-restricted"))).toEqual([]);
    const access = await problems("lib/access/fine.ts", `import { cookies } from "next/headers";\nexport const fine = cookies;\n`);
    expect(access.filter((p) => p.rule?.startsWith("no-restricted"))).toEqual([]);
  });
});
