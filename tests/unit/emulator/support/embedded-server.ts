/**
 * The console's embedded emulator (lib/embedded-emulator.ts, what the console mounts at /emulator) served over
 * plain node:http on a loopback port, as the console's route serves it, so that an app outside the process
 * (Bolt's Web API client) reaches it. Its Socket Mode connections go to its own loopback server, as in the
 * console. The console's configuration comes from the environment, stubbed for the test.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { vi } from "vitest";

export interface EmbeddedServer {
  /** The emulator's base: `http://127.0.0.1:{port}/emulator`. */
  url: string;
  close(): Promise<void>;
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
  return new Request(`${origin}${req.url ?? "/"}`, { method: req.method, headers, body });
}

export async function startEmbedded(): Promise<EmbeddedServer> {
  const server = createServer();
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
  const origin = `http://127.0.0.1:${port}`;
  vi.resetModules();
  for (const [key, value] of Object.entries({
    PLATFORM_BASE_URL: "",
    APP_ORIGIN: origin,
    SESSION_PASSWORD: "x".repeat(32),
    DATA_DIR: "memory://",
    LOG_LEVEL: "silent",
  }))
    vi.stubEnv(key, value);
  const embedded = await import("@/lib/embedded-emulator");
  server.on("request", (req, res) => {
    void (async () => {
      const response = await embedded.handleEmbeddedEmulatorRequest(await toRequest(req, origin));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  return {
    url: `${origin}/emulator`,
    async close() {
      await embedded.closeEmbeddedEmulator();
      delete (globalThis as Record<symbol, unknown>)[Symbol.for("switchboard.embeddedEmulator")];
      await new Promise((resolve) => server.close(resolve));
      vi.unstubAllEnvs();
    },
  };
}
