import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createEmulator, startEmulatorServer, type Emulator, type EmulatorServer } from "@/lib/emulator";

/**
 * What the emulator takes in is bounded where it enters, the same way whichever server carries it: the
 * emulator called in-process, the console's /emulator mount, and the standalone server over HTTP. Nesting
 * too deep to be stored and read back is refused before anything is stored; a body past its surface's cap
 * answers 413 without being read further.
 */

interface Peer {
  /** Where the emulator answers: its base URL. */
  base: string;
  /** The origin admin requests name. */
  origin: string;
  send(request: Request): Promise<Response>;
  emulator: () => Emulator;
}

const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
/** Blocks nested `depth` deep in all (the blocks array included): a section whose field holds nested arrays. */
const deepBlocks = (depth: number) => `[{"type":"section","text":{"type":"mrkdwn","text":"deep"},"x":${deepArray(depth - 2)}}]`;

function peers(): Array<[string, () => Promise<Peer>, () => Promise<void>]> {
  let server: EmulatorServer | undefined;
  return [
    [
      "the emulator in-process (createEmulator)",
      async () => {
        const emulator = createEmulator({ users: 5 });
        return { base: "http://localhost:3000", origin: "http://localhost:3000", send: (r) => emulator.fetch(r), emulator: () => emulator };
      },
      async () => {},
    ],
    [
      "the console's /emulator mount",
      async () => {
        vi.resetModules();
        for (const [key, value] of Object.entries({
          PLATFORM_BASE_URL: "",
          APP_ORIGIN: "http://localhost:3997",
          SESSION_PASSWORD: "x".repeat(32),
          EMULATOR_USERS: "5",
        }))
          vi.stubEnv(key, value);
        const embedded = await import("@/lib/embedded-emulator");
        return {
          base: "http://localhost:3997/emulator",
          origin: "http://localhost:3997",
          send: (r) => embedded.handleEmbeddedEmulatorRequest(r),
          emulator: () => embedded.getEmbeddedEmulator(),
        };
      },
      async () => {
        vi.unstubAllEnvs();
        vi.resetModules();
      },
    ],
    [
      "the standalone emulator over HTTP (startEmulatorServer)",
      async () => {
        server = await startEmulatorServer({ port: 0, users: 5 });
        const running = server;
        return {
          base: running.url,
          origin: new URL(running.url).origin,
          // Over the wire, with the body streamed (duplex) so that a body the server refuses is not sent whole first.
          send: (r) => fetch(r),
          emulator: () => running.emulator,
        };
      },
      async () => {
        await server?.close();
      },
    ],
  ];
}

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

/** Installs the rotation app with what posting and reading #general needs; returns its bot token and #general's id. */
async function installBot(peer: Peer): Promise<{ token: string; channel: string }> {
  const apps = (await json(await peer.send(new Request(`${peer.base}/admin/apps`)))).apps as Array<{ name: string; client_id: string; client_secret: string }>;
  const app = apps.find((a) => a.name === "Switchboard Rotation")!;
  const authorize = new URL(`${peer.base}/oauth/v2/authorize`);
  authorize.searchParams.set("client_id", app.client_id);
  authorize.searchParams.set("scope", "chat:write,channels:join,channels:history,channels:read");
  authorize.searchParams.set("redirect_uri", "http://localhost:3000/oauth/callback");
  const consent = await peer.send(
    new Request(authorize, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "decision=allow", redirect: "manual" }),
  );
  const code = new URL(consent.headers.get("location")!).searchParams.get("code")!;
  const granted = await json(
    await peer.send(
      new Request(`${peer.base}/api/oauth.v2.access`, {
        method: "POST",
        body: new URLSearchParams({ code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: "http://localhost:3000/oauth/callback" }),
      }),
    ),
  );
  expect(granted.ok).toBe(true);
  const token = granted.access_token as string;
  const channel = peer.emulator().state.workspace.channels.find((c) => c.isGeneral)!.id;
  expect(await json(await form(peer, "conversations.join", token, { channel }))).toMatchObject({ ok: true });
  return { token, channel };
}

const form = (peer: Peer, method: string, token: string, params: Record<string, string>) =>
  peer.send(
    new Request(`${peer.base}/api/${method}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(params),
    }),
  );

const jsonCall = (peer: Peer, method: string, token: string, body: string) =>
  peer.send(
    new Request(`${peer.base}/api/${method}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body }),
  );

const admin = (peer: Peer, path: string, body: string) =>
  peer.send(new Request(`${peer.base}/admin/${path}`, { method: "POST", headers: { origin: peer.origin, "content-type": "application/json" }, body }));

/** A body of `size` bytes streamed in 64 KB chunks, counting what the server pulled of it. */
function countedBody(size: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      const piece = chunk.subarray(0, Math.min(chunk.byteLength, size - sent));
      sent += piece.byteLength;
      controller.enqueue(piece);
    },
  });
  return { stream, pulled: () => sent };
}

describe.each(peers())("%s", (_name, start, stop) => {
  let peer: Peer;
  let bot: { token: string; channel: string };
  beforeAll(async () => {
    peer = await start();
    bot = await installBot(peer);
  });
  afterAll(stop);

  const history = async () => json(await form(peer, "conversations.history", bot.token, { channel: bot.channel }));

  describe("deep nesting", () => {
    it("refuses blocks nested 20,000 deep, form-encoded or JSON, with invalid_blocks, and stores nothing: the channel's history still reads", async () => {
      const before = ((await history()).messages as unknown[]).length;
      const blocks = deepBlocks(20_000);
      const byForm = await form(peer, "chat.postMessage", bot.token, { channel: bot.channel, text: "deep", blocks });
      expect(byForm.status).toBe(200);
      expect(await json(byForm)).toMatchObject({ ok: false, error: "invalid_blocks" });
      const byJson = await jsonCall(peer, "chat.postMessage", bot.token, `{"channel":"${bot.channel}","text":"deep","blocks":${blocks}}`);
      expect(byJson.status).toBe(200);
      expect(await json(byJson)).toMatchObject({ ok: false, error: "invalid_blocks" });
      const attachments = await form(peer, "chat.postMessage", bot.token, { channel: bot.channel, text: "deep", attachments: deepArray(5_000) });
      expect(await json(attachments)).toMatchObject({ ok: false, error: "invalid_attachments" });

      const after = await history();
      expect(after.ok).toBe(true);
      expect((after.messages as unknown[]).length).toBe(before);
      expect((await peer.send(new Request(`${peer.base}/admin/state`))).status).toBe(200);
    });

    it("takes blocks nested up to 32 levels and gives them back; 33 is refused", async () => {
      const posted = await json(await form(peer, "chat.postMessage", bot.token, { channel: bot.channel, text: "at the limit", blocks: deepBlocks(32) }));
      expect(posted).toMatchObject({ ok: true });
      expect(JSON.stringify((await history()).messages)).toContain('"at the limit"');
      // In a JSON body the parameters' object is one level more: the same blocks are taken either way.
      const asJson = await jsonCall(peer, "chat.postMessage", bot.token, `{"channel":"${bot.channel}","text":"json at the limit","blocks":${deepBlocks(32)}}`);
      expect(await json(asJson)).toMatchObject({ ok: true });
      expect(await json(await form(peer, "chat.postMessage", bot.token, { channel: bot.channel, text: "x", blocks: deepBlocks(33) }))).toMatchObject({
        ok: false,
        error: "invalid_blocks",
      });
    });

    it("answers invalid_arguments for any other parameter of a JSON body nested too deep", async () => {
      const answer = await jsonCall(peer, "chat.postMessage", bot.token, `{"channel":"${bot.channel}","text":"x","metadata":${deepArray(5_000)}}`);
      expect(answer.status).toBe(200);
      expect(await json(answer)).toMatchObject({ ok: false, error: "invalid_arguments" });
    });

    it("refuses a manifest with one deep key through apps.manifest.create (form or JSON) and the admin surface, and the apps still read", async () => {
      const issued = await json(await admin(peer, "config-tokens", "{}"));
      const configToken = issued.token as string;
      const manifest = `{"display_information":{"name":"Deep App"},"x":${deepArray(20_000)}}`;
      const byForm = await json(await form(peer, "apps.manifest.create", configToken, { manifest }));
      expect(byForm).toMatchObject({ ok: false, error: "invalid_manifest", errors: [{ message: expect.stringContaining("32 levels"), pointer: "/" }] });
      const byJson = await json(await jsonCall(peer, "apps.manifest.create", configToken, `{"manifest":${manifest}}`));
      expect(byJson).toMatchObject({ ok: false, error: "invalid_manifest" });
      // One level past the limit, under the body's own (a bare manifest is the body).
      const justPast = `{"display_information":{"name":"Deep App"},"x":${deepArray(32)}}`;
      const bare = await admin(peer, "apps", justPast);
      expect(bare.status).toBe(400);
      expect(await json(bare)).toMatchObject({ ok: false, error: "invalid_manifest" });
      const wrapped = await admin(peer, "apps", `{"manifest":${manifest}}`);
      expect(wrapped.status).toBe(400);
      expect(await json(wrapped)).toMatchObject({ ok: false, error: "json_too_deep" });

      const apps = await peer.send(new Request(`${peer.base}/admin/apps`));
      expect(apps.status).toBe(200);
      expect(JSON.stringify(await json(apps))).not.toContain("Deep App");
    });

    it("answers 400 json_too_deep on the admin surface for any body nested too deep", async () => {
      for (const path of ["faults", "mention", "clock"]) {
        const answer = await admin(peer, path, `{"methods":${deepArray(5_000)}}`);
        expect(answer.status).toBe(400);
        expect(await json(answer)).toMatchObject({ ok: false, error: "json_too_deep" });
      }
    });
  });

  describe("body size", () => {
    it("answers 413 to a Web API body past 1 MB without reading it whole, and still answers afterwards", async () => {
      const body = countedBody(256 * 1024 * 1024);
      const answer = await peer.send(
        new Request(`${peer.base}/api/auth.test`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: body.stream,
          duplex: "half",
        } as RequestInit),
      );
      expect(answer.status).toBe(413);
      expect(await json(answer)).toMatchObject({ ok: false, error: "payload_too_large" });
      // Over HTTP the sockets buffer a few megabytes more than what the server took; never the whole body.
      expect(body.pulled()).toBeLessThan(16 * 1024 * 1024);
      expect(await json(await form(peer, "auth.test", bot.token, {}))).toMatchObject({ ok: true });
    });

    it("takes a Web API body just under 1 MB: a long message reaches the emulator to be judged the platform's way", async () => {
      const text = "語".repeat(100_000);
      const answer = await json(await form(peer, "chat.postMessage", bot.token, { channel: bot.channel, text }));
      // The platform posts it cut to 40,000 characters, with its message_truncated warning.
      expect(answer).toMatchObject({ ok: true, warning: "message_truncated", response_metadata: { warnings: ["message_truncated"] } });
      expect((answer.message as { text: string }).text).toBe("語".repeat(40_000));
    });

    it("answers 413 past 64 KB on the admin surface, 40 KB on incoming webhooks and 1 MB on the consent page", async () => {
      const adminAnswer = await admin(peer, "faults", JSON.stringify({ methods: ["x".repeat(70 * 1024)] }));
      expect(adminAnswer.status).toBe(413);
      expect(await json(adminAnswer)).toMatchObject({ ok: false, error: "payload_too_large" });

      const webhook = await peer.send(
        new Request(`${peer.base}/services/T0/B0/secret`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ text: "x".repeat(41 * 1024) }),
        }),
      );
      expect(webhook.status).toBe(413);
      expect(await webhook.text()).toBe("payload_too_large");

      const consent = await peer.send(
        new Request(`${peer.base}/oauth/v2/authorize?client_id=1`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: `decision=allow&pad=${"x".repeat(1024 * 1024)}`,
        }),
      );
      expect(consent.status).toBe(413);
      expect(consent.headers.get("content-type")).toContain("text/html");
    });

    it("refuses a declared Content-Length past the cap before reading a byte", async () => {
      const body = countedBody(2 * 1024 * 1024);
      const answer = await peer.emulator().fetch(
        new Request(`${peer.base}/api/auth.test`, {
          method: "POST",
          headers: { "content-length": String(2 * 1024 * 1024) },
          body: body.stream,
          duplex: "half",
        } as RequestInit),
      );
      expect(answer.status).toBe(413);
      expect(body.pulled()).toBeLessThanOrEqual(64 * 1024);
    });
  });
});

describe("the emulator's body caps", () => {
  it("are options of createEmulator", async () => {
    const emulator = createEmulator({ users: 5, maxBodyBytes: { webApi: 1000 } });
    expect(emulator.options.maxBodyBytes).toEqual({ webApi: 1000, admin: 64 * 1024, webhooks: 40 * 1024 });
    const post = (size: number) => emulator.fetch(new Request("http://localhost/api/auth.test", { method: "POST", body: "a".repeat(size) }));
    expect((await post(1000)).status).toBe(200);
    expect((await post(1001)).status).toBe(413);
  });
});

describe("the standalone server", () => {
  let server: EmulatorServer | undefined;
  afterAll(async () => server?.close());

  it("answers 413 to a body it stops reading and closes the connection, then serves the next request", async () => {
    server = await startEmulatorServer({ port: 0, users: 5 });
    const url = new URL(`${server.url}/api/auth.test`);
    const answer = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = httpRequest(url, { method: "POST", agent: false, headers: { "content-type": "application/x-www-form-urlencoded" } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection });
      });
      req.on("error", reject);
      // Chunked, no Content-Length: the server must count for itself. It answers before the client has finished.
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      let written = 0;
      const write = () => {
        while (written < 64 * 1024 * 1024) {
          written += chunk.byteLength;
          if (!req.write(chunk)) return void req.once("drain", write);
        }
        req.end();
      };
      write();
    });
    expect(answer).toEqual({ status: 413, connection: "close" });
    expect((await fetch(url, { method: "POST" })).status).toBe(200);
  });
});
