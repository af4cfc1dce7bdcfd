import "server-only";
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { deepFreeze } from "./deep-freeze";
import { ChannelListener } from "./listen";
import type { InstallationSummary, StoredInstallation } from "./types";

/**
 * The hot path's copy of installations (with their tokens): a point read costs about 0.8 ms on PGlite, and
 * /api/call may add at most 2 ms to a direct call. It stays correct this way:
 *
 * - Every write goes through the repository, which drops the entry after its transaction commits; with
 *   PGlite (one process per DATA_DIR) that is every write there is.
 * - With PostgreSQL, every write also sends NOTIFY on CHANGE_CHANNEL with the installation's new version
 *   and id, in its transaction (so it is delivered at commit), and each instance LISTENs on a dedicated
 *   connection and drops an entry older than that version (and will not keep a read older than it). While that connection is down nothing is cached (reads go to the database), and when
 *   it comes back the whole cache is cleared: a change made meanwhile was never heard. A connection that
 *   dies silently is found within 3 s (listen.ts): the bound on serving what a missed notification changed.
 * - A read that began before an invalidation does not store what it read (a generation per entry).
 * - A write answers once every other instance has acknowledged its change (echo, below): what it wrote is
 *   what any instance serves next.
 * - Each workspace's installations (ids and apps, what the token API looks up by team) change only when
 *   an installation is made (version 1) or deleted, or a write changes its team or app: any of those drops them all.
 *
 * The rule for callers: anything that spends a refresh token reads the record with `fresh: true` under the
 * refresh lock, never from here; the cache only serves calls that use an access token as it stands.
 */

export const CHANGE_CHANNEL = "switchboard_installations";
/**
 * Where instances say they are there (`hello <instance>` once listening, answered by every other's `alive` at
 * once; `alive <instance>` every second), that they have heard changes (`ack <instance> <payload>…`, after
 * dropping what those changed), and that they leave (`bye <instance>`): a writer waits for every instance it
 * knows to have heard its change before it answers (echo). An instance of an earlier version says none of this,
 * so it is not waited for.
 */
export const PRESENCE_CHANNEL = "switchboard_instances";
/** An instance not heard for this long is no longer waited for. */
const PEER_SILENT_MS = 3_000;
/** PostgreSQL refuses a notification's payload from 8,000 bytes: acknowledgements are sent in lines up to this. */
const ACK_BYTES = 7_000;
/**
 * At most this many installations (and as many workspaces' lists of them) are kept, the least recently read
 * dropped first: enough for the token API's 100,000 installations warm (about 2 KB each with its tokens, so
 * some 200 MB at the most), bounded whatever the store holds.
 * @internal exported for its test
 */
export const MAX_ENTRIES = 100_000;
/** The longest a write waits to hear its own announcement back and every other instance acknowledge it (echo): a lost connection or a stalled instance must not hold writes. */
const ECHO_WAIT_MS = 500;

/** What the token API needs to find a workspace's installation of an app: never a secret. */
export interface InstallationRef {
  id: string;
  appKey: string;
  appId?: string;
}

/** A write of this instance waiting until its announcement is heard (echo). */
interface Echo {
  /** Heard back on this instance's own connection. */
  heard: boolean;
  /** The other instances that acknowledged it. */
  acks: Set<string>;
  done?: () => void;
}

export class InstallationCache {
  private readonly entries = new Map<string, StoredInstallation | null>();
  private readonly generations = new Map<string, number>();
  /** The highest version other instances announced per id: a read older than it is not kept. */
  private readonly announced = new Map<string, number>();
  private generation = 0;
  /** Each workspace's installations (which ids, of which apps), dropped by any installation made or deleted. */
  private readonly teams = new Map<string, InstallationRef[]>();
  /** Bumped when an installation is made or deleted: a team read overtaken by one is not kept. */
  private teamGeneration = 0;
  /** Every installation's summary (lists), dropped by any change to any installation. */
  private summaries: InstallationSummary[] | undefined;
  /** Bumped by every change: a list read overtaken by one is not kept. */
  private listGeneration = 0;
  private readonly listener: ChannelListener | undefined;
  /** This instance's own announcements not heard back or not acknowledged by every other instance yet (payload → what waits for it). */
  private readonly echoes = new Map<string, Echo>();
  /** This instance's name on the presence channel. */
  private readonly instance = randomBytes(8).toString("hex");
  /** The other instances, when each was last heard on the presence channel. */
  private readonly peers = new Map<string, number>();
  /** Other instances' changes heard and dropped here, to acknowledge at the end of this turn. */
  private acks: string[] = [];
  private closed = false;
  readonly stats = { hits: 0, misses: 0, invalidations: 0 };

  /**
   * `connect` makes a dedicated connection for LISTEN (PostgreSQL); without it every write is this process's.
   * `echoWaitMs` (ECHO_WAIT_MS) is longer in a test that tells an acknowledgement from the wait's end.
   */
  constructor(
    connect?: () => pg.Client,
    private readonly echoWaitMs = ECHO_WAIT_MS,
  ) {
    this.listener = connect
      ? new ChannelListener(
          CHANGE_CHANNEL,
          connect,
          {
            heard: (payload) => {
              // Before heard(), which lets go of our own echo: ours is not acknowledged (it is sent after this turn).
              this.acknowledge(payload);
              this.heard(payload);
            },
            presence: (payload) => this.presence(payload),
            // Anything cached before now may have changed unheard.
            listening: () => this.clear(),
            lost: () => {
              this.clear();
              this.peers.clear();
              // Nothing waited for can be heard now: the writes go on (what other instances hold is theirs to drop).
              for (const echo of this.echoes.values()) echo.done?.();
            },
          },
          { channel: PRESENCE_CHANNEL, hello: `hello ${this.instance}`, alive: `alive ${this.instance}` },
        )
      : undefined;
  }

  /** Starts listening (PostgreSQL); resolves once the first LISTEN is in place or has failed (then retried). */
  async start(): Promise<void> {
    await this.listener?.start();
  }

  /** Whether the cache may serve reads (always with PGlite; with PostgreSQL while LISTEN is up). */
  get active(): boolean {
    return (this.listener?.up ?? true) && !this.closed;
  }

  /**
   * The cached record (null: known absent), or undefined when not cached. A copy, which callers may change;
   * with `shared`, the cache's own record, deeply frozen (the token API's warm path: the copy was 20 µs of an
   * answer's 1 ms), which a caller cannot change.
   */
  get(id: string, options: { shared?: boolean } = {}): StoredInstallation | null | undefined {
    if (!this.active) return undefined;
    const hit = this.entries.get(id);
    if (hit === undefined) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    // Read again: the least recently read is the one dropped when the cache is full.
    this.entries.delete(id);
    this.entries.set(id, hit);
    return hit === null || options.shared ? hit : structuredClone(hit);
  }

  /** A workspace's installations as last read (a copy; with `shared`, the cache's own, frozen), or undefined when not cached. */
  getTeam(teamId: string, options: { shared?: boolean } = {}): InstallationRef[] | undefined {
    if (!this.active) return undefined;
    const hit = this.teams.get(teamId);
    if (hit === undefined) return undefined;
    this.teams.delete(teamId);
    this.teams.set(teamId, hit);
    return options.shared ? hit : hit.map((ref) => ({ ...ref }));
  }

  /** The ticket a team reader takes before reading: putTeam keeps the read only if no installation was made or deleted since. */
  teamTicket(): number {
    return this.teamGeneration;
  }

  putTeam(teamId: string, refs: InstallationRef[], ticket: number): void {
    if (!this.active || ticket !== this.teamGeneration) return;
    if (this.teams.size >= MAX_ENTRIES) this.teams.delete(this.teams.keys().next().value!);
    this.teams.set(teamId, deepFreeze(refs.map((ref) => ({ ...ref }))));
  }

  /** An installation was made or deleted (here or on another instance): every workspace's list may be wrong. */
  private membershipChanged(): void {
    this.teamGeneration++;
    this.teams.clear();
  }

  /** Every installation's summary, as last read (a copy), or undefined when a change dropped it. */
  getSummaries(): InstallationSummary[] | undefined {
    if (!this.active || this.summaries === undefined) return undefined;
    return structuredClone(this.summaries);
  }

  /** The ticket a list reader takes before reading: putSummaries keeps the read only if nothing changed since. */
  summariesTicket(): number {
    return this.listGeneration;
  }

  putSummaries(summaries: InstallationSummary[], ticket: number): void {
    if (!this.active || ticket !== this.listGeneration) return;
    this.summaries = structuredClone(summaries);
  }

  private changed(): void {
    this.listGeneration++;
    this.summaries = undefined;
  }

  /** The token a reader takes before reading, so that a read overtaken by an invalidation is not stored. */
  ticket(id: string): number {
    return (this.generations.get(id) ?? 0) + this.generation * 1e9;
  }

  put(id: string, record: StoredInstallation | null, ticket: number): void {
    if (!this.active || this.ticket(id) !== ticket) return;
    if ((record?.version ?? 0) < (this.announced.get(id) ?? 0)) return;
    this.entries.delete(id);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, record === null ? null : deepFreeze(structuredClone(record)));
  }

  /**
   * A change announced by NOTIFY: `<version> <id>` after a write, `deleted <id>` after a delete, `moved <id>`
   * before a write that changed its team or app (the workspaces' lists drop, as for a delete). An entry at that
   * version or later (this instance's own write, read back) stays. Version 1 is a new installation.
   */
  heard(payload: string): void {
    const echo = this.echoes.get(payload);
    if (echo) {
      echo.heard = true;
      this.progressed(payload);
    }
    const space = payload.indexOf(" ");
    const id = payload.slice(space + 1);
    const version = Number(payload.slice(0, space));
    if (space < 0 || !Number.isInteger(version)) {
      this.invalidate(space < 0 ? payload : id, { made: true });
      return;
    }
    if (version <= 1) this.membershipChanged();
    // Bounded as the entries are: forgetting what was announced, reads in flight (which it guarded) are not kept.
    if (this.announced.size >= MAX_ENTRIES && !this.announced.has(id)) {
      this.announced.clear();
      this.generation++;
    }
    this.announced.set(id, Math.max(version, this.announced.get(id) ?? 0));
    this.changed();
    const cached = this.entries.get(id);
    if (cached !== undefined && (cached?.version ?? 0) < version) {
      this.stats.invalidations++;
      this.entries.delete(id);
    }
  }

  /**
   * Called in a writing transaction that announces `payload`: `echo(payload)`, after the commit, then waits
   * until this instance hears it back and every other instance it knows has acknowledged it (each does after
   * dropping what it changed), so a refresh answered here is served by any instance asked next. Hearing our
   * own echo alone was not enough: PostgreSQL signals each listener's backend at commit, but each delivers in
   * its own time, and on a loaded machine another instance heard the change after this one had answered and
   * its client had asked that instance (the two-instance test, once in CI). Without LISTEN up there is
   * nothing to wait for.
   */
  expectEcho(payload: string): void {
    if (!this.listener?.up) return;
    // One whose transaction rolled back is never heard nor waited for: the oldest go first.
    if (this.echoes.size >= 1_000) this.echoes.delete(this.echoes.keys().next().value!);
    this.echoes.set(payload, { heard: false, acks: new Set() });
  }

  /** Resolves once `payload` (announced by this instance) is heard back and acknowledged everywhere, or after ECHO_WAIT_MS (echoWaitMs). */
  echo(payload: string): Promise<void> {
    const echo = this.echoes.get(payload);
    // Without LISTEN up (lost since the write) nothing can be heard: not waited for.
    if (!echo || this.settled(echo) || !this.listener?.up) {
      this.echoes.delete(payload);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => echo.done?.(), this.echoWaitMs);
      echo.done = () => {
        clearTimeout(timer);
        if (this.echoes.get(payload) === echo) this.echoes.delete(payload);
        resolve();
      };
    });
  }

  /** Whether an announcement has been heard back and acknowledged by every instance heard within PEER_SILENT_MS. */
  private settled(echo: Echo): boolean {
    if (!echo.heard) return false;
    const since = Date.now() - PEER_SILENT_MS;
    for (const [peer, at] of this.peers) {
      if (at < since) this.peers.delete(peer);
      else if (!echo.acks.has(peer)) return false;
    }
    return true;
  }

  /** Our own announcement heard back, or another's acknowledgement of it: its writer may go on once both are in. */
  private progressed(payload: string): void {
    const echo = this.echoes.get(payload);
    if (echo?.done && this.settled(echo)) echo.done();
  }

  /** Another instance's change, dropped here: acknowledged at the end of this turn, with whatever else this turn heard. */
  private acknowledge(payload: string): void {
    // Our own is no one's to wait for; a move is always followed by its write's own version.
    if (this.echoes.has(payload) || payload.startsWith("moved ")) return;
    if (this.acks.push(payload) > 1) return;
    setImmediate(() => {
      const payloads = this.acks;
      this.acks = [];
      const prefix = `ack ${this.instance}`;
      let lines = prefix;
      for (const heard of payloads) {
        if (lines.length + heard.length + 1 > ACK_BYTES) {
          void this.listener?.send(lines);
          lines = prefix;
        }
        lines += `\n${heard}`;
      }
      void this.listener?.send(lines);
    });
  }

  /** `hello`, `alive` or `bye <instance>`, or `ack <instance>` followed by the payloads it heard, one a line. */
  private presence(payload: string): void {
    const [head, ...heard] = payload.split("\n");
    const [kind, peer] = head!.split(" ");
    if (!peer || peer === this.instance) return;
    const now = Date.now();
    if (kind === "bye") {
      this.peers.delete(peer);
      // Writes waiting for it go on once every instance still there has acknowledged them.
      for (const [one, echo] of this.echoes) if (echo.done && this.settled(echo)) this.progressed(one);
      return;
    }
    if (kind !== "hello" && kind !== "alive" && kind !== "ack") return;
    // A peer not heard for PEER_SILENT_MS is forgotten here too, not only when a write asks (a reading instance keeps no trace of it).
    for (const [known, at] of this.peers) if (at < now - PEER_SILENT_MS) this.peers.delete(known);
    this.peers.set(peer, now);
    // A new instance learns at once who is there, so its first writes wait for them too.
    if (kind === "hello") void this.listener?.send(`alive ${this.instance}`);
    for (const one of heard) {
      const echo = this.echoes.get(one);
      if (!echo) continue;
      echo.acks.add(peer);
      this.progressed(one);
    }
  }

  /** After a write here (`made`: one that may have made or deleted the installation). */
  invalidate(id: string, options: { made?: boolean } = {}): void {
    if (options.made) this.membershipChanged();
    this.changed();
    this.stats.invalidations++;
    this.entries.delete(id);
    // Bounded as the entries are (every write here adds an id): starting over bumps the generation every
    // ticket carries, so no read in flight, whatever it guarded, is stored.
    if (this.generations.size >= MAX_ENTRIES && !this.generations.has(id)) {
      this.generations.clear();
      this.generation++;
    }
    this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
  }

  clear(): void {
    this.membershipChanged();
    this.changed();
    this.entries.clear();
    this.generations.clear();
    this.announced.clear();
    this.generation++;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.clear();
    // The others stop waiting for this instance's acknowledgements now, not once it has been silent for 3 s.
    await this.listener?.send(`bye ${this.instance}`);
    await this.listener?.close();
  }
}
