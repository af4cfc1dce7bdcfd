import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { z } from "zod";
import { deleteCookie, listCookieNames, readSealedCookie, writeSealedCookie } from "@/lib/http/sealed-cookie";

// Served over https: every session cookie is a __Host- cookie, which a sibling subdomain cannot set or shadow.
Object.assign(process.env, {
  APP_ORIGIN: "https://console.example.com",
  SESSION_PASSWORD: randomBytes(32).toString("base64url"),
  EMULATOR_ADMIN_TOKEN: randomBytes(32).toString("base64url"),
  // An origin beyond this machine exposes the console, which must then say who may use it.
  AUTH_MODE: "none",
  LOG_LEVEL: "silent",
});

// A sealed cookie as the console keeps one (the OAuth state, the pasted webhooks): its name and what it holds.
const value = { id: "T1-A1", note: "sealed" };
const schema = z.object({ id: z.string(), note: z.string() });
const saveInstallation = (v: typeof value) => writeSealedCookie(`sb_test_${v.id}`, v, 3600);
/** What the cookies under the prefix hold, each only under its own name (a copy under another name does not count). */
const listInstallations = async () =>
  (await Promise.all((await listCookieNames("sb_test_")).map(async (name) => ({ name, v: await readSealedCookie(name, schema) })))).flatMap(({ name, v }) =>
    v && name === `sb_test_${v.id}` ? [v] : [],
  );
const removeInstallation = (id: string) => deleteCookie(`sb_test_${id}`);
const installation = value;

const request = (cookie?: string) => new Request("https://console.example.com/api/session", cookie ? { headers: { cookie } } : {});

describe("session cookies over https", () => {
  it("are written as __Host- cookies: Secure, Path=/, no Domain", async () => {
    const jar = new RequestCookieJar(request());
    await runWithCookieJar(jar, () => saveInstallation(installation));
    const [line = ""] = jar.setCookieHeaders();
    expect(line).toMatch(/^__Host-sb_test_T1-A1=/);
    expect(line).toContain("; Secure");
    expect(line).toContain("; Path=/;");
    expect(line).not.toMatch(/domain=/i);
  });

  it("read back under their __Host- name first: an unprefixed copy counts only as what it unseals to, under its own name", async () => {
    const writer = new RequestCookieJar(request());
    await runWithCookieJar(writer, () => saveInstallation(installation));
    const sealed = (writer.setCookieHeaders()[0] ?? "").split(";")[0]!.split("=").slice(1).join("=");
    const reader = new RequestCookieJar(request(`sb_test_T1-A2=${sealed}; __Host-sb_test_T1-A1=${sealed}`));
    const found = await runWithCookieJar(reader, () => listInstallations());
    expect(found.map((i) => i.id)).toEqual(["T1-A1"]);
    expect(reader.setCookieHeaders()).toEqual([]);
  });

  it("are cleared with Secure, or the browser would refuse to clear a __Host- cookie", async () => {
    const writer = new RequestCookieJar(request());
    await runWithCookieJar(writer, () => saveInstallation(installation));
    const sealed = (writer.setCookieHeaders()[0] ?? "").split(";")[0]!.split("=").slice(1).join("=");
    const jar = new RequestCookieJar(request(`__Host-sb_test_T1-A1=${sealed}`));
    await runWithCookieJar(jar, () => removeInstallation("T1-A1"));
    const [line = ""] = jar.setCookieHeaders();
    expect(line).toMatch(/^__Host-sb_test_T1-A1=; .*Max-Age=0/);
    expect(line).toContain("; Secure");
  });
});

describe("an upgrade to __Host- cookies", () => {
  it("loses no cookie: one under its old name is read, and its next write moves it under the prefix", async () => {
    const writer = new RequestCookieJar(request());
    await runWithCookieJar(writer, () => saveInstallation(installation));
    const sealed = (writer.setCookieHeaders()[0] ?? "").split(";")[0]!.split("=").slice(1).join("=");
    // What an earlier version set over https: the same seal, without the prefix.
    const jar = new RequestCookieJar(request(`sb_test_T1-A1=${sealed}`));
    const found = await runWithCookieJar(jar, () => listInstallations());
    expect(found.map((i) => i.id)).toEqual(["T1-A1"]);
    await runWithCookieJar(jar, () => saveInstallation({ ...found[0]!, note: "again" }));
    const lines = jar.setCookieHeaders();
    expect(lines.find((l) => l.startsWith("__Host-sb_test_T1-A1="))).toMatch(/; Secure/);
    expect(lines.find((l) => l.startsWith("sb_test_T1-A1="))).toMatch(/^sb_test_T1-A1=; .*Max-Age=0.*; Secure/);
  });
});
