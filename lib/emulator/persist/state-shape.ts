/**
 * How the emulator's state splits into journal records (persist/journal.ts): which of its Maps and arrays
 * are containers whose entries are saved one by one, which fields are indexes or belong to the process only.
 * A record is saved whole (its containers aside): a token, a message, a channel, the workspace's own fields.
 *
 * Open records (the state itself and each workspace) need no word here for a Map added to them later: any
 * Map field not named below is a container of plain records, saved entry by entry, as app-level tokens
 * will be. Arrays and nested objects are part of the record that holds them.
 */
import { listOf, mapOf, PLAIN_RECORD, type RecordShape } from "../core/record-shapes";
import type { EventLog } from "../events/types";
import type { Channel, Message, Workspace } from "../workspace/workspace";

const WORKSPACE: RecordShape = {
  kind: "record",
  open: true,
  containers: {
    channels: listOf<Channel>((c) => c.id),
    messages: mapOf(listOf<Message>((m) => m.ts)),
    bots: listOf<{ userId: string }>((b) => b.userId),
    views: {
      kind: "group",
      containers: {
        triggers: mapOf(PLAIN_RECORD),
        views: mapOf(PLAIN_RECORD),
        stacks: mapOf(PLAIN_RECORD),
        homes: mapOf(PLAIN_RECORD),
        externalIds: mapOf(PLAIN_RECORD),
      },
    },
    files: { kind: "group", containers: { pending: mapOf(PLAIN_RECORD), tickets: mapOf(PLAIN_RECORD), files: mapOf(PLAIN_RECORD) } },
  },
  transient: ["channelsById", "botsByAppId"],
  restore(record) {
    const ws = record as unknown as Workspace;
    ws.channels.sort((a, b) => a.index - b.index);
    ws.channelsById = new Map(ws.channels.map((c) => [c.id, c]));
    ws.botsByAppId = new Map(ws.bots.map((b) => [b.appId, b]));
    // A journal written before user groups, assistant threads and streams existed has none.
    ws.usergroups ??= new Map();
    ws.assistantThreads ??= new Map();
    ws.streams ??= new Map();
  },
};

const EVENT_LOG: RecordShape = {
  kind: "record",
  containers: { deliveries: listOf<{ eventId: string }>((d) => d.eventId) },
  // Deliveries under way end with the process; the log keeps what they had done.
  transient: ["inFlight"],
  restore(record) {
    (record as unknown as EventLog).inFlight = new Set();
  },
};

/**
 * The state (types.ts's EmulatorState). Its Maps not named here (apps, installations, tokens, codes, …) are
 * containers of plain records by the open rule. `workspace` is the first of `workspaces`; rate limits (their
 * switches and windows) and fault settings last as long as the process.
 */
export const STATE_SHAPE: RecordShape = {
  kind: "record",
  open: true,
  containers: {
    workspaces: mapOf(WORKSPACE),
    eventLogs: mapOf(EVENT_LOG),
    signIns: { kind: "group", containers: { codes: mapOf(PLAIN_RECORD), tokens: mapOf(PLAIN_RECORD) } },
  },
  // The switches of rate limits and faults follow the configuration at each start, as the process's own.
  transient: ["workspace", "rateWindows", "faults", "rateLimitsEnabled", "nonMarketplaceLimits"],
};
