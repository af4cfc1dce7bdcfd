/**
 * Serves an emulator over plain node:http: `npm run emulator` and the tests that drive the official
 * client libraries over the wire use it. Its WebSocket upgrades are Socket Mode's (socket-mode/upgrade.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { createEmulator, type Emulator } from "../emulator";
import type { EmulatorOptions } from "../types";

export interface EmulatorServerOptions extends EmulatorOptions {
  /** 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface EmulatorServer {
  emulator: Emulator;
  server: Server;
  port: number;
  /** http://host:port + basePath: the base_url to point clients at (their Web API URL is {url}/api/). */
  url: string;
  close(): Promise<void>;
}

/**
 * The request body as a stream the emulator pulls from: it reads what it takes (up to its cap,
 * core/request-body.ts) and no more is buffered here. Once it stops reading (413), the rest is drained
 * unread, so the answer can still be written, and the connection closes after it.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const settle = (finish: () => void) => {
          if (settled) return;
          settled = true;
          finish();
        };
        req.pause();
        req.on("data", (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once("end", () => settle(() => controller.close()));
        req.once("error", (error) => settle(() => controller.error(error)));
        req.once("close", () => settle(() => controller.error(new Error("the request was cut off before its body arrived"))));
      },
      pull() {
        req.resume();
      },
      cancel() {
        settled = true;
        req.resume();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

function toRequest(req: IncomingMessage, host: string): Request {
  const url = `http://${req.headers.host ?? host}${req.url ?? "/"}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return new Request(url, { method, headers });
  return new Request(url, { method, headers, body: bodyStream(req), duplex: "half" } as RequestInit);
}

/** What is read and dropped of a body the emulator stopped reading, after its answer, before the connection ends. */
const LINGER_BYTES = 4 * 1024 * 1024;
const LINGER_MS = 1000;

/**
 * Ends the connection of a request whose body the emulator answered before reading it whole (a 413), the way
 * servers close "lingering": closing at once, while the client is still sending, resets the connection and
 * the client can lose the answer in flight (EPIPE instead of the 413). So the answer goes out, then what the
 * client still sends is read and dropped, at most LINGER_BYTES or LINGER_MS, and the connection ends: never
 * the whole body.
 */
function lingerThenClose(req: IncomingMessage, res: ServerResponse): void {
  // Not Connection: close, which would make Node destroy the socket the moment the answer is written.
  res.once("finish", () => {
    let dropped = 0;
    const close = () => req.socket.destroy();
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    req.socket.once("close", () => clearTimeout(timer));
    req.on("data", (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) close();
    });
    req.resume();
  });
}

/**
 * Writes a Response. The first body chunk is read before the status line is written, so a body that
 * fails at once (the emulator's dropped-connection fault) destroys the socket with no response at all.
 */
async function writeResponse(res: ServerResponse, response: Response, method: string): Promise<void> {
  const reader = response.body?.getReader();
  let first: ReadableStreamReadResult<Uint8Array> | undefined;
  try {
    first = reader ? await reader.read() : undefined;
  } catch {
    res.socket?.destroy();
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!reader || !first || method === "HEAD") {
    res.end();
    return;
  }
  // A long answer (the workspace stream) learns that its client went away: its source is cancelled.
  res.once("close", () => void reader.cancel().catch(() => {}));
  try {
    let chunk = first;
    while (!chunk.done) {
      res.write(chunk.value);
      chunk = await reader.read();
    }
    res.end();
  } catch {
    res.destroy();
  }
}

export async function startEmulatorServer(options: EmulatorServerOptions = {}): Promise<EmulatorServer> {
  const { port = 0, host = "127.0.0.1", ...emulatorOptions } = options;
  // Browsers reach it at its loopback names or the interface it listens on; a DNS rebinding page names its own.
  const emulator = createEmulator({ ...emulatorOptions, admin: { allowedHosts: ["localhost", "127.0.0.1", "[::1]", host], ...emulatorOptions.admin } });
  const server = createServer((req, res) => {
    emulator
      .fetch(toRequest(req, `${host}:${port}`))
      .then((response) => {
        // An answer given before the body was read in full (413) ends the connection: what is left of the body is not waited for.
        if (!req.complete) lingerThenClose(req, res);
        return writeResponse(res, response, req.method ?? "GET");
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" }).end('{"ok":false,"error":"internal_error"}');
        else res.destroy();
      });
  });
  // Socket Mode: the URL apps.connections.open answers is on this server ({base}/link/); other upgrades are refused.
  const upgraded = new Set<Duplex>();
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.once("close", () => upgraded.delete(socket));
    if (!emulator.handleUpgrade(req, socket, head)) socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    // The data directory is given back: another attempt (another port) may take it.
    await emulator.close();
    throw error;
  }
  const actualPort = (server.address() as AddressInfo).port;
  return {
    emulator,
    server,
    port: actualPort,
    url: `http://${host}:${actualPort}${emulator.options.basePath}`,
    // The server stops first, so no request changes the state after its last write.
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }).finally(() => emulator.close()),
  };
}
