import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import type { InstallationRecord } from "@/lib/installations/record";
import { listInstallations, removeInstallation, saveInstallation } from "@/lib/installations/store";

// Served over https: every session cookie is a __Host- cookie, which a sibling subdomain cannot set or shadow.
Object.assign(process.env, {
  APP_ORIGIN: "https://console.example.com",
  SESSION_PASSWORD: randomBytes(32).toString("base64url"),
  EMULATOR_ADMIN_TOKEN: randomBytes(32).toString("base64url"),
  // An origin beyond this machine exposes the console, which must then say who may use it.
  AUTH_MODE: "none",
  LOG_LEVEL: "silent",
});

const installation: InstallationRecord = {
  id: "T1-A1",
  appKey: "console",
  appId: "A1",
  team: { id: "T1", name: "Team" },
  bot: { value: "xoxe.xoxb-1-abc", refreshToken: "xoxe-1-def", expiresAt: Date.now() + 3600_000, scopes: ["users:read"] },
  state: "active",
  installedAt: 1,
  updatedAt: 1,
};

const request = (cookie?: string) => new Request("https://console.example.com/api/session", cookie ? { headers: { cookie } } : {});

describe("session cookies over https", () => {
  it("are written as __Host- cookies: Secure, Path=/, no Domain", async () => {
    const jar = new RequestCookieJar(request());
    await runWithCookieJar(jar, () => saveInstallation(installation));
    const [line = ""] = jar.setCookieHeaders();
    expect(line).toMatch(/^__Host-sb_inst_T1-A1=/);
    expect(line).toContain("; Secure");
    expect(line).toContain("; Path=/;");
    expect(line).not.toMatch(/domain=/i);
  });

  it("read back under their __Host- name first: an unprefixed copy counts only as what it unseals to, under its own name", async () => {
    const writer = new RequestCookieJar(request());
    await runWithCookieJar(writer, () => saveInstallation(installation));
    const sealed = (writer.setCookieHeaders()[0] ?? "").split(";")[0]!.split("=").slice(1).join("=");
    const reader = new RequestCookieJar(request(`sb_inst_T1-A2=${sealed}; __Host-sb_inst_T1-A1=${sealed}`));
    const found = await runWithCookieJar(reader, () => listInstallations());
    expect(found.map((i) => i.id)).toEqual(["T1-A1"]);
    expect(reader.setCookieHeaders()).toEqual([]);
  });

  it("are cleared with Secure, or the browser would refuse to clear a __Host- cookie", async () => {
    const writer = new RequestCookieJar(request());
    await runWithCookieJar(writer, () => saveInstallation(installation));
    const sealed = (writer.setCookieHeaders()[0] ?? "").split(";")[0]!.split("=").slice(1).join("=");
    const jar = new RequestCookieJar(request(`__Host-sb_inst_T1-A1=${sealed}`));
    await runWithCookieJar(jar, () => removeInstallation("T1-A1"));
    const [line = ""] = jar.setCookieHeaders();
    expect(line).toMatch(/^__Host-sb_inst_T1-A1=; .*Max-Age=0/);
    expect(line).toContain("; Secure");
  });
});

describe("an upgrade to __Host- cookies", () => {
  it("loses no installation: a cookie under its old name is read, and its next write moves it under the prefix", async () => {
    const writer = new RequestCookieJar(request());
    await runWithCookieJar(writer, () => saveInstallation(installation));
    const sealed = (writer.setCookieHeaders()[0] ?? "").split(";")[0]!.split("=").slice(1).join("=");
    // What an earlier version set over https: the same seal, without the prefix.
    const jar = new RequestCookieJar(request(`sb_inst_T1-A1=${sealed}`));
    const found = await runWithCookieJar(jar, () => listInstallations());
    expect(found.map((i) => i.id)).toEqual(["T1-A1"]);
    await runWithCookieJar(jar, () => saveInstallation({ ...found[0]!, updatedAt: 2 }));
    const lines = jar.setCookieHeaders();
    expect(lines.find((l) => l.startsWith("__Host-sb_inst_T1-A1="))).toMatch(/; Secure/);
    expect(lines.find((l) => l.startsWith("sb_inst_T1-A1="))).toMatch(/^sb_inst_T1-A1=; .*Max-Age=0.*; Secure/);
  });
});
