import "server-only";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { Emulator } from "@/lib/emulator";

/*
 * Socket Mode for the console's embedded emulator. Next.js route handlers cannot take a WebSocket upgrade, and
 * Next.js's server closes any upgrade whose path an app route matches (all of /emulator/…); nor does the
 * console learn its own server before a request has come. So the embedded emulator takes its Socket Mode
 * connections on a small server of its own, on loopback and a port the system picks, started the first time
 * apps.connections.open is called; the URL that method answers names it (ws://127.0.0.1:{port}/emulator/link/…).
 * Apps on this machine (the emulator's users) reach it; it is never reachable from elsewhere.
 */

export interface EmbeddedSocketServer {
  /** The ws:// base the emulator's apps.connections.open names (EmulatorOptions.socketModeUrl). */
  url(): Promise<string>;
  close(): Promise<void>;
}

export function embeddedSocketServer(emulator: () => Emulator, basePath: string): EmbeddedSocketServer {
  let listening: Promise<{ server: Server; url: string }> | undefined;
  const sockets = new Set<Duplex>();
  const start = () =>
    new Promise<{ server: Server; url: string }>((resolve, reject) => {
      // Plain requests are not its business: it answers upgrades only.
      const server = createServer((_req, res) => res.writeHead(426, { "content-type": "text/plain" }).end("Socket Mode connections only.\n"));
      server.on("upgrade", (req, socket: Duplex, head: Buffer) => {
        sockets.add(socket);
        socket.once("close", () => sockets.delete(socket));
        if (!emulator().handleUpgrade(req, socket, head)) socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
      });
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        // It must not keep a server that is shutting down alive.
        server.unref();
        resolve({ server, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}${basePath}` });
      });
    });
  return {
    async url() {
      listening ??= start();
      return (await listening).url;
    },
    async close() {
      if (!listening) return;
      const { server } = await listening;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
