import { describe, expect, it } from "vitest";
import { checkWebhookUrl, type WebhookUrlPolicy } from "@/lib/webhooks/url-guard";

const PLATFORM: WebhookUrlPolicy = { webhookHosts: ["hooks.slack.com"], emulatorOrigin: null, emulatorMountPath: "/emulator" };
const EMULATOR: WebhookUrlPolicy = { ...PLATFORM, emulatorOrigin: "http://localhost:3000" };
// A made-up secret, assembled so that no webhook-looking URL sits in the repository.
const GOOD = `https://hooks.slack.com/services/T0001/B0001/${["abcdefghijkl", "mnopqrstuvwx"].join("")}`;

describe("checkWebhookUrl accepts the shapes the platform issues", () => {
  it("accepts https://hooks.slack.com/services/T/B/secret", () => {
    const check = checkWebhookUrl(GOOD, PLATFORM);
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.url.href).toBe(GOOD);
  });

  it("accepts another configured webhook host", () => {
    const policy = { ...PLATFORM, webhookHosts: ["hooks.slack.com", "hooks.example.dev"] };
    expect(checkWebhookUrl("https://hooks.example.dev/services/T1/B1/s3cr3t", policy).ok).toBe(true);
  });

  it("accepts this server's own /emulator/services/ path when the emulator is the upstream", () => {
    expect(checkWebhookUrl("http://localhost:3000/emulator/services/T1/B1/s3cr3t", EMULATOR).ok).toBe(true);
  });

  it("refuses this server's own origin when the real platform is the upstream", () => {
    const check = checkWebhookUrl("http://localhost:3000/emulator/services/T1/B1/s3cr3t", PLATFORM);
    expect(check).toMatchObject({ ok: false, reason: expect.stringContaining("https") });
  });
});

// Each row: [what it tries, the URL, a word the reason must contain].
const HOSTILE: Array<[string, string, RegExp]> = [
  // other hosts and lookalikes
  ["another host", "https://evil.example.com/services/T1/B1/secret", /not an allowed webhook host/],
  ["a subdomain of the allowed host", "https://x.hooks.slack.com/services/T1/B1/secret", /not an allowed/],
  ["the allowed host as a subdomain of another", "https://hooks.slack.com.evil.com/services/T1/B1/secret", /not an allowed/],
  ["a lookalike with a digit", "https://hooks.s1ack.com/services/T1/B1/secret", /not an allowed/],
  ["a lookalike with a hyphen", "https://hooks-slack.com/services/T1/B1/secret", /not an allowed/],
  ["a Cyrillic homograph (IDN)", "https://hооks.slack.com/services/T1/B1/secret", /non-ASCII/],
  ["a punycode homograph", "https://xn--hks-seda.slack.com/services/T1/B1/secret", /not an allowed/],
  ["an uppercase host", "https://HOOKS.SLACK.COM/services/T1/B1/secret", /lowercase/],
  ["a trailing dot", "https://hooks.slack.com./services/T1/B1/secret", /ends with a dot/],
  ["localhost", "https://localhost/services/T1/B1/secret", /not an allowed/],
  ["the metadata host name", "https://metadata.google.internal/services/T1/B1/secret", /not an allowed/],
  // userinfo and @ tricks
  ["userinfo before the allowed host", "https://user:pass@hooks.slack.com/services/T1/B1/secret", /'@'/],
  ["the allowed host as userinfo", "https://hooks.slack.com@evil.com/services/T1/B1/secret", /'@'/],
  ["an @ in the path", "https://hooks.slack.com/services/T1/B1/@evil.com", /'@'/],
  // encoded characters, backslashes and path tricks
  ["a percent-encoded dot in the host", "https://hooks%2eslack.com/services/T1/B1/secret", /percent-encoded/],
  ["an encoded slash in the path", "https://hooks.slack.com/services/T1%2fB1/x/secret", /percent-encoded/],
  ["an encoded dot-dot", "https://hooks.slack.com/services/%2e%2e/B1/secret", /percent-encoded/],
  ["a backslash after the host", "https://evil.com\\@hooks.slack.com/services/T1/B1/secret", /backslash/],
  ["a backslash as the path separator", "https://hooks.slack.com\\services\\T1\\B1\\secret", /backslash/],
  ["dot-dot segments", "https://hooks.slack.com/services/../../admin/x/y", /exactly three segments/],
  ["two segments", "https://hooks.slack.com/services/T1/B1", /exactly three segments/],
  ["four segments", "https://hooks.slack.com/services/T1/B1/secret/extra", /exactly three segments/],
  ["an empty segment", "https://hooks.slack.com/services/T1//secret", /exactly three segments/],
  ["a path outside /services/", "https://hooks.slack.com/api/chat.postMessage/x/y", /exactly three segments/],
  ["a query string", `${GOOD}?redirect=https://evil.com`, /query string/],
  ["a fragment", `${GOOD}#x`, /fragment/],
  ["a space", "https://hooks.slack.com /services/T1/B1/secret", /spaces/],
  ["a tab", "https://hooks.slack.com/services/T1/B1/sec\tret", /control/],
  ["a newline", "https://hooks.slack.com/services/T1/B1/secret\n", /control/],
  // IP literals in every notation
  ["dotted IPv4", "https://127.0.0.1/services/T1/B1/secret", /IP address/],
  ["decimal IPv4", "https://2130706433/services/T1/B1/secret", /IP address/],
  ["octal IPv4", "https://0177.0.0.1/services/T1/B1/secret", /IP address/],
  ["octal IPv4 in one number", "https://017700000001/services/T1/B1/secret", /IP address/],
  ["hex IPv4", "https://0x7f.0x0.0x0.0x1/services/T1/B1/secret", /IP address/],
  ["hex IPv4 in one number", "https://0x7f000001/services/T1/B1/secret", /IP address/],
  ["shortened IPv4", "https://127.1/services/T1/B1/secret", /IP address/],
  ["the cloud metadata address", "https://169.254.169.254/services/T1/B1/secret", /IP address/],
  ["IPv4 with a trailing dot", "https://10.0.0.1./services/T1/B1/secret", /IP address/],
  ["bracketed IPv6 loopback", "https://[::1]/services/T1/B1/secret", /IP address/],
  ["IPv4-mapped IPv6", "https://[::ffff:127.0.0.1]/services/T1/B1/secret", /IP address/],
  ["IPv4-mapped IPv6 in hex", "https://[::ffff:7f00:1]/services/T1/B1/secret", /IP address/],
  ["bracketed IPv6 with a port", "https://[::1]:443/services/T1/B1/secret", /IP address/],
  ["an unbracketed IPv6 address", "https://::1/services/T1/B1/secret", /port|IP address/],
  // other ports and schemes
  ["an explicit default port", "https://hooks.slack.com:443/services/T1/B1/secret", /port/],
  ["another port", "https://hooks.slack.com:8443/services/T1/B1/secret", /port/],
  ["an empty port", "https://hooks.slack.com:/services/T1/B1/secret", /port/],
  ["plain http", "http://hooks.slack.com/services/T1/B1/secret", /Only https/],
  ["uppercase scheme", "HTTPS://hooks.slack.com/services/T1/B1/secret", /Only https/],
  ["ftp", "ftp://hooks.slack.com/services/T1/B1/secret", /Only https/],
  ["file", "file:///etc/passwd", /Only https/],
  ["gopher", "gopher://hooks.slack.com/services/T1/B1/secret", /Only https/],
  ["javascript", "javascript:alert(1)", /must look like/],
  ["data", "data:text/plain,hi", /must look like/],
  ["a scheme-relative URL", "//hooks.slack.com/services/T1/B1/secret", /must look like/],
  ["a single-slash https URL", "https:/hooks.slack.com/services/T1/B1/secret", /must look like/],
  ["https without slashes", "https:hooks.slack.com/services/T1/B1/secret", /must look like/],
  ["an empty string", "", /empty/],
  ["a very long URL", `https://hooks.slack.com/services/T1/B1/${"a".repeat(3000)}`, /longer than/],
];

describe("checkWebhookUrl refuses hostile URLs, with the reason", () => {
  it("has at least 30 hostile inputs", () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
  });

  it.each(HOSTILE)("refuses %s", (_what, url, reason) => {
    const check = checkWebhookUrl(url, PLATFORM);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(reason);
  });

  it.each(HOSTILE)("refuses %s in emulator mode too", (_what, url) => {
    expect(checkWebhookUrl(url, EMULATOR).ok).toBe(false);
  });
});

describe("checkWebhookUrl keeps the emulator exception narrow", () => {
  const cases: Array<[string, string]> = [
    ["another port on this host", "http://localhost:3001/emulator/services/T1/B1/secret"],
    ["https instead of this origin's http", "https://localhost:3000/emulator/services/T1/B1/secret"],
    ["this origin's IP instead of its name", "http://127.0.0.1:3000/emulator/services/T1/B1/secret"],
    ["an uppercase host name", "http://LOCALHOST:3000/emulator/services/T1/B1/secret"],
    ["a path outside /emulator/services/", "http://localhost:3000/emulator/admin/state"],
    ["the emulator's Web API", "http://localhost:3000/emulator/api/auth.test"],
    ["a console route", "http://localhost:3000/api/webhooks/send"],
    ["four segments", "http://localhost:3000/emulator/services/T1/B1/secret/x"],
    ["dot-dot out of /emulator/services/", "http://localhost:3000/emulator/services/../../api/x"],
    ["an encoded slash", "http://localhost:3000/emulator/services/T1/B1%2f..%2fx/y"],
    ["userinfo", "http://x@localhost:3000/emulator/services/T1/B1/secret"],
  ];
  it.each(cases)("refuses %s", (_what, url) => {
    expect(checkWebhookUrl(url, EMULATOR).ok).toBe(false);
  });
});

// A standalone emulator as the upstream (PLATFORM_BASE_URL=http://127.0.0.1:4000, webhookUrlPolicy): its own
// /services/ alone, at exactly the configured origin; none of its admin surface, no other port, no path games.
describe("checkWebhookUrl with a standalone emulator upstream", () => {
  const STANDALONE: WebhookUrlPolicy = { ...PLATFORM, emulatorOrigin: "http://127.0.0.1:4000", emulatorMountPath: "" };

  it("accepts the emulator's /services/T/B/secret", () => {
    expect(checkWebhookUrl("http://127.0.0.1:4000/services/T1/B1/s3cr3t", STANDALONE).ok).toBe(true);
  });

  it.each([
    ["its admin surface", "http://127.0.0.1:4000/admin/config-tokens"],
    ["its Web API", "http://127.0.0.1:4000/api/chat.postMessage"],
    ["a path that climbs out of /services/", "http://127.0.0.1:4000/services/../admin/x/y"],
    ["two segments", "http://127.0.0.1:4000/services/T1/B1"],
    ["another port on the same host", "http://127.0.0.1:4001/services/T1/B1/s3cr3t"],
    ["the same port by another name", "http://localhost:4000/services/T1/B1/s3cr3t"],
    ["https on the emulator's port", "https://127.0.0.1:4000/services/T1/B1/s3cr3t"],
  ])("refuses %s", (_what, url) => {
    expect(checkWebhookUrl(url, STANDALONE).ok).toBe(false);
  });
});
