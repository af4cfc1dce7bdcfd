/**
 * What a new workspace already holds, so the explorer has something to show on the first call: #general and
 * three more channels, each with a history of SEEDED_MESSAGES messages from its members (five of them threads
 * with replies, some with reactions, one sharing a file). Drawn from the workspace's seed (EMULATOR_SEED), so
 * the same seed gives the same history on every run. Members stay generated, not stored: only the messages and
 * the files are. The bot of an app installed here is in #general (welcomeBot), so its history reads at once.
 */
import { randomBytes } from "node:crypto";
import type { FilesState, StoredFile } from "./files";
import { fnv1a, hex, pick, rng, scrambleId, type ScrambleKeys } from "./ids";

/*
 * The parts of a workspace (workspace.ts) this module reads and writes, stated here rather than imported:
 * workspace.ts calls it, so importing from there would be a cycle.
 */
interface SeededMessage {
  type: "message";
  ts: string;
  text: string;
  user?: string;
  team: string;
  thread_ts?: string;
  reply_count?: number;
  reply_users?: string[];
  latest_reply?: string;
  reactions?: Array<{ name: string; users: string[]; count: number }>;
  files?: unknown[];
  upload?: boolean;
  via: string;
}
interface SeedTarget {
  seed: string;
  team: { id: string };
  userCount: number;
  keys: ScrambleKeys;
  channels: ReadonlyArray<{ id: string; name: string; baseMembers: number; isGeneral: boolean }>;
  messages: Map<string, SeededMessage[]>;
  files: FilesState;
  lastTs: { seconds: number; seq: number };
}
type Message = SeededMessage;

/** The channels that get a history: #general first, then three of the generated public ones. */
const SEEDED_CHANNELS = ["general", "random", "engineering", "incidents"] as const;
/** Top-level messages per channel (thread replies come on top). */
const SEEDED_MESSAGES = 55;
const THREADS_PER_CHANNEL = 5;
/** The history ends here (2025-06-30T00:00:00Z), before any clock the emulator runs on, one message per 17 minutes. */
const HISTORY_END_S = 1751241600;
const STEP_S = 17 * 60;

const LINES: Record<(typeof SEEDED_CHANNELS)[number], readonly string[]> = {
  general: [
    "Good morning, everyone!",
    "Reminder: all-hands is on Thursday at 4pm.",
    "The office wifi password changed; check the wiki.",
    "Welcome to our new teammates this week :wave:",
    "Who is around for lunch today?",
    "The quarterly survey closes on Friday.",
    "Please update your profile photo if you can.",
    "Happy Friday! Any weekend plans?",
    "The kitchen will be cleaned tomorrow morning.",
    "Thanks to everyone who joined the offsite.",
  ],
  random: [
    "Has anyone tried the new coffee place downstairs?",
    "Look at this sunset from the roof.",
    "Book club picks its next book tomorrow.",
    "Is it just me or is it cold in here?",
    "Anyone up for a board game tonight?",
    "Found a great podcast about typography.",
    "Who left the umbrella in room 3?",
    "Cat picture of the day incoming.",
  ],
  engineering: [
    "The CI pipeline is green again.",
    "Can someone review the migration PR?",
    "We are bumping the Node version next sprint.",
    "Heads up: the staging database restarts at noon.",
    "Flaky test in the payments suite, looking into it.",
    "The new logging library is in; see the README.",
    "Design doc for the cache layer is up for comments.",
    "Latency on the search endpoint is down 30%.",
  ],
  incidents: [
    "Investigating elevated error rates on the API.",
    "Mitigated: the bad deploy was rolled back.",
    "Postmortem for last week's outage is published.",
    "Paging the on-call for the queue backlog.",
    "Monitoring: error rate back to normal.",
    "Customer reports of slow logins, checking.",
    "Resolved: DNS change propagated.",
  ],
};
const REPLIES = ["Agreed.", "Thanks for the heads up!", "On it.", "+1", "Good catch.", "Let me check and get back to you.", "Done.", "Nice!"];
const REACTIONS = ["thumbsup", "tada", "eyes", "heart", "white_check_mark", "raised_hands", "joy", "rocket"];

/** The stream of draws for the seeded content (ids.ts streams below 100 belong to members and channels). */
const CONTENT_STREAM = 300;

/** Fills a new workspace's seeded channels with their history and files. Deterministic in the workspace's seed. */
export function seedWorkspaceContent(ws: SeedTarget): void {
  const seedHash = fnv1a(`${ws.seed}:content`);
  const channels = SEEDED_CHANNELS.map((name) => ws.channels.find((c) => c.name === name)).filter((c) => c !== undefined);
  // One timeline across the channels (message ts are unique and increasing across the workspace), ending at HISTORY_END_S.
  const perChannel = SEEDED_MESSAGES + THREADS_PER_CHANNEL * 4;
  let seconds = HISTORY_END_S - channels.length * perChannel * STEP_S;
  const nextTs = () => `${(seconds += STEP_S)}.000100`;

  channels.forEach((channel, c) => {
    const r = rng(seedHash, CONTENT_STREAM + c, 0);
    const members = Math.max(1, Math.min(channel.baseMembers, ws.userCount));
    const author = () => scrambleId(ws.keys, "U", Math.floor(r() * members));
    const lines = LINES[channel.name as (typeof SEEDED_CHANNELS)[number]];
    const log: Message[] = [];
    // Threads start at evenly spread messages; the file is shared by the one in the middle of the history.
    const threadAt = new Set(Array.from({ length: THREADS_PER_CHANNEL }, (_, i) => Math.floor(((i + 0.5) * SEEDED_MESSAGES) / THREADS_PER_CHANNEL)));
    const fileAt = Math.floor(SEEDED_MESSAGES / 2) + 1;

    for (let i = 0; i < SEEDED_MESSAGES; i++) {
      const message: Message = { type: "message", ts: nextTs(), text: pick(lines, r()), user: author(), team: ws.team.id, via: "seed" };
      if (r() < 0.3 || i === 0) message.reactions = reactionsFor(r, author);
      if (i === fileAt) shareFile(ws, r, channel.id, channel.name, message);
      log.push(message);
      if (threadAt.has(i)) {
        const replies = 2 + Math.floor(r() * 3);
        for (let k = 0; k < replies; k++) {
          const reply: Message = {
            type: "message",
            ts: nextTs(),
            text: pick(REPLIES, r()),
            user: author(),
            team: ws.team.id,
            thread_ts: message.ts,
            via: "seed",
          };
          log.push(reply);
        }
        const thread = log.filter((m) => m.thread_ts === message.ts);
        message.thread_ts = message.ts;
        message.reply_count = thread.length;
        message.reply_users = [...new Set(thread.map((m) => m.user as string))];
        message.latest_reply = thread.at(-1)?.ts;
      }
    }
    ws.messages.set(channel.id, log);
  });
  ws.lastTs = { seconds, seq: 1 };
}

function reactionsFor(r: () => number, author: () => string): Message["reactions"] {
  const names = [...new Set(Array.from({ length: 1 + Math.floor(r() * 2) }, () => pick(REACTIONS, r())))];
  return names.map((name) => {
    const users = [...new Set(Array.from({ length: 1 + Math.floor(r() * 4) }, author))];
    return { name, users, count: users.length };
  });
}

/** A text file a member shared with `message`: kept in the workspace's files, as files.list and files.info read them. */
function shareFile(ws: SeedTarget, r: () => number, channelId: string, channelName: string, message: Message): void {
  const name = `${channelName}-notes.txt`;
  const bytes = new TextEncoder().encode(`Notes shared in #${channelName}.\n${message.text}\n`);
  const created = Number(message.ts.split(".")[0]);
  const file: StoredFile = {
    id: `F0${hex(r, 9).toUpperCase()}`,
    appId: "",
    userId: message.user as string,
    name,
    title: `Notes from #${channelName}`,
    mimetype: "text/plain",
    filetype: "text",
    prettyType: "Plain Text",
    created,
    bytes,
    // Secret like every download link's: not drawn from the seed, which may be public.
    secret: randomBytes(16).toString("hex"),
    shares: new Map([[channelId, [message.ts]]]),
    deleted: false,
  };
  ws.files.files.set(file.id, file);
  message.upload = true;
  // The file as history shows it; the links (url_private, …) need the emulator's address: files.info gives them.
  message.files = [
    {
      id: file.id,
      created,
      timestamp: created,
      name,
      title: file.title,
      mimetype: file.mimetype,
      filetype: file.filetype,
      pretty_type: file.prettyType,
      user: file.userId,
      user_team: ws.team.id,
      size: bytes.byteLength,
      mode: "hosted",
      is_external: false,
      is_public: true,
    },
  ];
}

/**
 * A seeded workspace's #general has an arriving app's bot in it (its people added the app there), so
 * conversations.history on #general answers at once with a bot token; other channels still need a join.
 * A workspace is seeded when its #general holds the seeded history (state that is kept with the messages).
 */
export function welcomeBot(ws: Pick<SeedTarget, "channels" | "messages">, joinedChannels: Set<string>): void {
  const general = ws.channels.find((c) => c.isGeneral);
  if (general && ws.messages.get(general.id)?.some((m) => m.via === "seed")) joinedChannels.add(general.id);
}
