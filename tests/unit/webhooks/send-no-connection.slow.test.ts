import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { sendToWebhook, webhookTimeoutMs } from "@/lib/webhooks/send";
import type { WebhookUrlPolicy } from "@/lib/webhooks/url-guard";

/**
 * A real listener on this machine stands in for an internal service an attacker would aim the proxy at.
 * It counts TCP connections, so "refused" provably means "no connection was opened", not "the request
 * was sent and the answer dropped".
 */
interface Listener {
  server: Server;
  port: number;
  connections: number;
  requests: Array<{ method: string; url: string; body: string }>;
  answer: (res: import("node:http").ServerResponse) => void;
}

async function listen(): Promise<Listener> {
  const listener: Listener = {
    server: createServer(),
    port: 0,
    connections: 0,
    requests: [],
    answer: (res) => res.writeHead(200, { "content-type": "text/plain" }).end("ok"),
  };
  listener.server.on("connection", () => {
    listener.connections += 1;
  });
  listener.server.on("request", (req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      listener.requests.push({ method: req.method ?? "", url: req.url ?? "", body });
      listener.answer(res);
    });
  });
  await new Promise<void>((resolve) => listener.server.listen(0, "127.0.0.1", resolve));
  listener.port = (listener.server.address() as AddressInfo).port;
  return listener;
}

let target: Listener;
let other: Listener;
let policy: WebhookUrlPolicy;

beforeAll(async () => {
  target = await listen();
  other = await listen();
  // The emulator-mode policy whose own origin is the listener: the one way a URL may reach it.
  policy = { webhookHosts: ["hooks.slack.com"], emulatorOrigin: `http://127.0.0.1:${target.port}`, emulatorMountPath: "/emulator" };
});

afterAll(async () => {
  await Promise.all(
    [target, other].map((l) => {
      l.server.closeAllConnections();
      return new Promise((resolve) => l.server.close(resolve));
    }),
  );
});

describe("the webhook proxy opens no connection for a refused URL", () => {
  const hostile = (port: number) => [
    `http://127.0.0.1:${port}/services/T1/B1/secret`,
    `https://127.0.0.1:${port}/services/T1/B1/secret`,
    `http://localhost:${port}/emulator/services/T1/B1/secret`,
    `http://2130706433:${port}/emulator/services/T1/B1/secret`,
    `http://0x7f000001:${port}/emulator/services/T1/B1/secret`,
    `http://0177.0.0.1:${port}/emulator/services/T1/B1/secret`,
    `http://[::ffff:127.0.0.1]:${port}/emulator/services/T1/B1/secret`,
    `https://hooks.slack.com@127.0.0.1:${port}/services/T1/B1/secret`,
    `http://127.0.0.1:${port}\\@hooks.slack.com/services/T1/B1/secret`,
    `http://127.0.0.1:${port}/emulator/services/T1/B1/secret/extra`,
    `http://127.0.0.1:${port}/emulator/admin/state`,
    `http://127.0.0.1:${port}/emulator/services/..%2f..%2fapi/x/y`,
  ];

  it("answers 400 with a reason for every hostile URL aimed at the listener, and the listener sees nothing", async () => {
    for (const url of hostile(other.port)) {
      const outcome = await sendToWebhook(url, JSON.stringify({ text: "hi" }), { policy });
      expect(outcome, url).toMatchObject({ kind: "refused", status: 400, reason: expect.any(String) });
    }
    // Hostile shapes aimed at the allowed origin's own port are refused too, before connecting.
    for (const url of hostile(target.port).filter((u) => !u.startsWith(`http://127.0.0.1:${target.port}/emulator/services/T1`))) {
      const outcome = await sendToWebhook(url, JSON.stringify({ text: "hi" }), { policy });
      expect(outcome.kind, url).toBe("refused");
    }
    expect(other.connections).toBe(0);
    expect(target.connections).toBe(0);
  });

  it("refuses a body over 40 KB with 413 before connecting", async () => {
    const before = target.connections;
    const outcome = await sendToWebhook(`http://127.0.0.1:${target.port}/emulator/services/T1/B1/secret`, JSON.stringify({ text: "x".repeat(41 * 1024) }), {
      policy,
    });
    expect(outcome).toMatchObject({ kind: "refused", status: 413 });
    expect(target.connections).toBe(before);
  });
});

describe("the webhook proxy sends an allowed URL, bounded", () => {
  it("POSTs the JSON payload to an allowed URL and returns status and plain-text body", async () => {
    target.answer = (res) => res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    const outcome = await sendToWebhook(`http://127.0.0.1:${target.port}/emulator/services/T1/B1/secret`, JSON.stringify({ text: "hello" }), { policy });
    expect(outcome).toMatchObject({ kind: "answered", answer: { status: 200, body: "ok", ok: true, hint: null } });
    expect(target.connections).toBeGreaterThanOrEqual(1);
    expect(target.requests.at(-1)).toEqual({ method: "POST", url: "/emulator/services/T1/B1/secret", body: '{"text":"hello"}' });
  });

  it("returns an error answer with a hint", async () => {
    target.answer = (res) => res.writeHead(404, { "content-type": "text/plain" }).end("channel_not_found");
    const outcome = await sendToWebhook(`http://127.0.0.1:${target.port}/emulator/services/T1/B1/secret`, JSON.stringify({ text: "x" }), { policy });
    expect(outcome).toMatchObject({ kind: "answered", answer: { status: 404, body: "channel_not_found", ok: false, hint: expect.stringMatching(/channel/) } });
  });

  it("reports Retry-After on 429", async () => {
    target.answer = (res) => res.writeHead(429, { "retry-after": "7", "content-type": "text/plain" }).end("rate_limited");
    const outcome = await sendToWebhook(`http://127.0.0.1:${target.port}/emulator/services/T1/B1/secret`, JSON.stringify({ text: "x" }), { policy });
    expect(outcome).toMatchObject({ kind: "answered", answer: { status: 429, retryAfterS: 7, hint: expect.stringMatching(/Rate limited/) } });
  });

  it("does not follow a redirect: the redirect target gets no connection", async () => {
    target.answer = (res) => res.writeHead(302, { location: `http://127.0.0.1:${other.port}/steal` }).end();
    const outcome = await sendToWebhook(`http://127.0.0.1:${target.port}/emulator/services/T1/B1/secret`, JSON.stringify({ text: "x" }), { policy });
    expect(outcome).toMatchObject({ kind: "failed", status: 502, reason: expect.stringMatching(/redirect/) });
    expect(other.connections).toBe(0);
  });

  it("reads at most 4 KB of the answer", async () => {
    target.answer = (res) => res.writeHead(200, { "content-type": "text/plain" }).end("y".repeat(64 * 1024));
    const outcome = await sendToWebhook(`http://127.0.0.1:${target.port}/emulator/services/T1/B1/secret`, JSON.stringify({ text: "x" }), { policy });
    expect(outcome.kind).toBe("answered");
    if (outcome.kind === "answered") {
      expect(outcome.answer.body.length).toBe(4096);
      expect(outcome.answer.truncated).toBe(true);
    }
  });

  it("gives up after the timeout with 504", async () => {
    target.answer = () => {};
    const outcome = await sendToWebhook(`http://127.0.0.1:${target.port}/emulator/services/T1/B1/secret`, JSON.stringify({ text: "x" }), {
      policy,
      timeoutMs: 300,
    });
    expect(outcome).toMatchObject({ kind: "failed", status: 504 });
  });

  it("waits 10 seconds at most, or the console's upstream timeout when that is shorter", () => {
    expect(webhookTimeoutMs(parseConfig({ SESSION_PASSWORD: "p".repeat(32) }).upstreamTimeoutMs)).toBe(10_000);
    expect(webhookTimeoutMs(60_000)).toBe(10_000);
    expect(webhookTimeoutMs(3_000)).toBe(3_000);
  });

  it("never puts the URL or its secret in a reason", async () => {
    const secretUrl = `http://127.0.0.1:${other.port}/services/T1/B1/SUPERSECRETVALUE`;
    const outcome = await sendToWebhook(secretUrl, JSON.stringify({ text: "x" }), { policy });
    expect(JSON.stringify(outcome)).not.toContain("SUPERSECRETVALUE");
  });
});
