/**
 * Socket Mode's connections (the platform's `wss://…/link/?ticket=…`): one hub per emulator, kept beside its
 * state (a WeakMap, never saved: a connection ends with the process, as the platform's end with a host). It
 * hands out single-use tickets (apps.connections.open), takes the WebSocket upgrade (`ws`, no server of its
 * own: whoever serves the emulator passes upgrades in), says `hello`, sends envelopes and waits for their
 * acks, pings, and sends `disconnect`.
 *
 * Deliveries are spread round-robin among an app's open connections; a connection that was told to
 * disconnect takes no new envelope (so a refresh loses nothing), and an envelope sent while no connection is
 * open waits a while for one (the official client reconnects a few seconds after a `disconnect`).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import type { SocketFailure } from "../events/types";
import type { EmulatorState } from "../types";

/** At most this many open connections per app, as on the platform. */
export const MAX_CONNECTIONS_PER_APP = 10;
/** How long a URL from apps.connections.open may wait to be used. */
const TICKET_TTL_MS = 60_000;
/** Server pings keep a connection alive (the official client times out a server silent for 30 s). */
const PING_INTERVAL_MS = 10_000;
/** How long an envelope waits for an open connection before the attempt counts as failed. */
export const CONNECTION_WAIT_MS = 15_000;
/** The largest frame an app may send (an ack with a payload). */
const MAX_FRAME_BYTES = 1024 * 1024;

export type DisconnectReason = "refresh_requested" | "warning" | "link_disabled";
export const DISCONNECT_REASONS: readonly DisconnectReason[] = ["refresh_requested", "warning", "link_disabled"];

export interface SocketAttempt {
  connectionId?: string;
  envelopeId: string;
  failure?: SocketFailure;
  /** The ack's payload, when the app gave one. */
  response?: unknown;
}

interface Connection {
  id: string;
  appId: string;
  socket: WebSocket;
  openedAt: number;
  /** Told to disconnect: it takes no new envelope. */
  draining: boolean;
  alive: boolean;
  /** Envelopes sent on it awaiting their ack, by envelope id. */
  awaiting: Map<string, (ack: { payload?: unknown } | undefined) => void>;
  delivered: number;
}

interface Ticket {
  appId: string;
  expiresAt: number;
}

export class SocketHub {
  private readonly tickets = new Map<string, Ticket>();
  private readonly connections = new Map<string, Connection[]>();
  private readonly turn = new Map<string, number>();
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, clientTracking: false });
  private readonly pinger: ReturnType<typeof setInterval>;
  private closed = false;

  constructor() {
    this.pinger = setInterval(() => this.ping(), PING_INTERVAL_MS);
    this.pinger.unref?.();
  }

  /** A single-use ticket for the app's next connection. */
  issueTicket(appId: string): string {
    const now = Date.now();
    for (const [ticket, t] of this.tickets) if (t.expiresAt <= now) this.tickets.delete(ticket);
    const ticket = randomUUID();
    this.tickets.set(ticket, { appId, expiresAt: now + TICKET_TTL_MS });
    return ticket;
  }

  /** The app's open connections (those told to disconnect included, until they close). */
  openConnections(appId: string): number {
    return this.connections.get(appId)?.length ?? 0;
  }

  /**
   * Takes an upgrade whose URL carries a ticket: refused with 401 (unknown, used or expired ticket) or 429
   * (the app has its 10 connections). The caller has checked the path.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, ticketValue: string | null): void {
    const ticket = ticketValue ? this.tickets.get(ticketValue) : undefined;
    if (ticketValue) this.tickets.delete(ticketValue);
    if (this.closed || !ticket || ticket.expiresAt <= Date.now()) return refuse(socket, 401, "invalid_ticket");
    if (this.openConnections(ticket.appId) >= MAX_CONNECTIONS_PER_APP) return refuse(socket, 429, "too_many_websockets");
    this.server.handleUpgrade(request, socket, head, (ws) => this.adopt(ws, ticket.appId));
  }

  private adopt(socket: WebSocket, appId: string): void {
    const connection: Connection = { id: randomUUID(), appId, socket, openedAt: Date.now(), draining: false, alive: true, awaiting: new Map(), delivered: 0 };
    const list = this.connections.get(appId) ?? [];
    list.push(connection);
    this.connections.set(appId, list);
    socket.on("pong", () => (connection.alive = true));
    socket.on("message", (data, isBinary) => {
      if (isBinary) return;
      let ack: { envelope_id?: unknown; payload?: unknown };
      try {
        ack = JSON.parse(data.toString()) as typeof ack;
      } catch {
        return;
      }
      const settle = typeof ack.envelope_id === "string" ? connection.awaiting.get(ack.envelope_id) : undefined;
      if (settle) settle({ payload: ack.payload });
    });
    socket.on("close", () => this.forget(connection));
    socket.on("error", () => socket.terminate());
    socket.send(
      JSON.stringify({
        type: "hello",
        num_connections: list.length,
        debug_info: { host: "emulator-socket-mode", build_number: 1, approximate_connection_time: 18_060 },
        connection_info: { app_id: appId },
      }),
    );
    for (const wake of this.waiting.get(appId) ?? []) wake();
  }

  private forget(connection: Connection): void {
    const list = (this.connections.get(connection.appId) ?? []).filter((c) => c !== connection);
    if (list.length > 0) this.connections.set(connection.appId, list);
    else this.connections.delete(connection.appId);
    for (const settle of connection.awaiting.values()) settle(undefined);
    connection.awaiting.clear();
  }

  private ping(): void {
    for (const list of this.connections.values()) {
      for (const connection of list) {
        // No pong since the last ping: the peer is gone.
        if (!connection.alive) connection.socket.terminate();
        else {
          connection.alive = false;
          connection.socket.ping();
        }
      }
    }
  }

  /** The next connection to deliver on (round-robin over those not told to disconnect). */
  private pick(appId: string): Connection | undefined {
    const open = (this.connections.get(appId) ?? []).filter((c) => !c.draining && c.socket.readyState === c.socket.OPEN);
    if (open.length === 0) return undefined;
    const n = (this.turn.get(appId) ?? 0) % open.length;
    this.turn.set(appId, n + 1);
    return open[n];
  }

  private waitForConnection(appId: string, timeoutMs: number): Promise<Connection | undefined> {
    const now = this.pick(appId);
    if (now || this.closed) return Promise.resolve(now);
    return new Promise((resolve) => {
      const waiters = this.waiting.get(appId) ?? new Set();
      this.waiting.set(appId, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(wake);
        resolve(this.closed ? undefined : this.pick(appId));
      };
      const wake = () => done();
      const timer = setTimeout(done, timeoutMs);
      timer.unref?.();
      waiters.add(wake);
    });
  }

  /**
   * Sends one envelope (made by `envelope` with its id) on one of the app's connections and waits for its ack
   * up to `ackTimeoutMs`. Never throws: the outcome says what happened.
   */
  async send(appId: string, envelope: (envelopeId: string) => Record<string, unknown>, ackTimeoutMs: number): Promise<SocketAttempt> {
    const envelopeId = randomUUID();
    const connection = await this.waitForConnection(appId, CONNECTION_WAIT_MS);
    if (!connection) return { envelopeId, failure: "no_connection" };
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(undefined, "timeout"), ackTimeoutMs);
      timer.unref?.();
      const finish = (ack: { payload?: unknown } | undefined, failure?: SocketFailure) => {
        clearTimeout(timer);
        connection.awaiting.delete(envelopeId);
        if (ack) resolve({ connectionId: connection.id, envelopeId, ...(ack.payload !== undefined ? { response: ack.payload } : {}) });
        else resolve({ connectionId: connection.id, envelopeId, failure: failure ?? "connection_closed" });
      };
      connection.awaiting.set(envelopeId, (ack) => finish(ack));
      connection.delivered += 1;
      connection.socket.send(JSON.stringify({ envelope_id: envelopeId, ...envelope(envelopeId) }));
    });
  }

  /**
   * Sends `disconnect` with a reason to one connection, or to each of the app's. After `refresh_requested` and
   * `link_disabled` the connection takes no new envelope; `link_disabled` closes it too (the app turned Socket
   * Mode off). Answers how many connections were told.
   */
  disconnect(appId: string, reason: DisconnectReason, connectionId?: string): number {
    const targets = (this.connections.get(appId) ?? []).filter((c) => connectionId === undefined || c.id === connectionId);
    for (const connection of targets) {
      if (reason !== "warning") connection.draining = true;
      connection.socket.send(JSON.stringify({ type: "disconnect", reason, debug_info: { host: "emulator-socket-mode" } }));
      if (reason === "link_disabled") connection.socket.close(1000, "link_disabled");
    }
    return targets.length;
  }

  /** What the admin surface shows of an app's connections. */
  describe(appId: string) {
    return (this.connections.get(appId) ?? []).map((c) => ({
      id: c.id,
      opened_at: new Date(c.openedAt).toISOString(),
      disconnect_sent: c.draining,
      envelopes_sent: c.delivered,
      awaiting_ack: c.awaiting.size,
    }));
  }

  /** Ends every connection (the emulator closes, or was reset). */
  closeAll(): void {
    for (const list of this.connections.values()) for (const connection of list) connection.socket.terminate();
    this.tickets.clear();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.pinger);
    this.closeAll();
    for (const waiters of this.waiting.values()) for (const wake of waiters) wake();
  }
}

function refuse(socket: Duplex, status: number, error: string): void {
  const body = JSON.stringify({ ok: false, error });
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? "Unauthorized" : "Too Many Requests"}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
  );
}

const HUBS = new WeakMap<EmulatorState, SocketHub>();

/** The hub of an emulator's state, made at first use. */
export function hubOf(state: EmulatorState): SocketHub {
  let hub = HUBS.get(state);
  if (!hub) {
    hub = new SocketHub();
    HUBS.set(state, hub);
  }
  return hub;
}

/** The hub if one was made (closing an emulator that never used Socket Mode makes none). */
export function existingHubOf(state: EmulatorState): SocketHub | undefined {
  return HUBS.get(state);
}
