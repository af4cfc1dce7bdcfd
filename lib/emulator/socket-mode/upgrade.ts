/**
 * Where a server that serves the emulator passes its WebSocket upgrades (`server.on("upgrade", …)`): those for
 * `{base}/link/` go to the Socket Mode hub, anything else is not the emulator's (false: the caller decides).
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { EmulatorState } from "../types";
import { LINK_PATH } from "./connections-open";
import { hubOf } from "./hub";

export function handleSocketUpgrade(state: EmulatorState, basePath: string, request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
  const url = new URL(request.url ?? "/", "http://emulator.invalid");
  const link = `${basePath}${LINK_PATH}`;
  if (url.pathname !== link && url.pathname !== link.slice(0, -1)) return false;
  hubOf(state).handleUpgrade(request, socket, head, url.searchParams.get("ticket"));
  return true;
}
