import "server-only";
import { AppError } from "@/lib/http/app-error";
import { callEmulatorAdmin, fetchEmulatorAdmin, type AdminTarget } from "./transport";
import {
  JoinTeamAnswerWire,
  MemberActAnswerWire,
  MemberViewsWire,
  SuggestAnswerWire,
  WorkspaceHistoryWire,
  WorkspaceMemberWire,
  WorkspacePeopleWire,
  type JoinTeamAnswerWire as JoinTeamAnswer,
  type MemberActAnswerWire as MemberActAnswer,
  type MemberViewsWire as MemberViews,
  type SuggestAnswerWire as SuggestAnswer,
  type WorkspaceHistoryWire as WorkspaceHistory,
  type WorkspaceMemberWire as WorkspaceMember,
  type WorkspacePeopleWire as WorkspacePeople,
} from "./universal/schemas";

/**
 * The Workspace page's operations on the emulator's admin surface: what a member sees (their conversations,
 * a history, their views), what they do (post, DM the app, react, open its Home, run its slash command,
 * click, ask an external select for options, use a shortcut, submit or close a modal, bring a new person in) and the live stream of what changes. One function per
 * operation, each answer parsed (universal/schemas.ts); a refusal is relayed with the emulator's own code.
 */

/** Who acts, and in which workspace (default the emulator's first; the member default its primary owner). */
interface Member {
  user?: string;
  team_id?: string;
}

function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}

/** GET /admin/workspace/member: the people to act as, the installed apps, the conversations the member sees. */
export function readWorkspaceMember(target: AdminTarget, who: Member & { people?: number }): Promise<WorkspaceMember> {
  const { people, ...rest } = who;
  return callEmulatorAdmin(target, `workspace/member${query({ ...rest, people: people === undefined ? undefined : String(people) })}`, WorkspaceMemberWire);
}

/** GET /admin/workspace/people: the people whose name or id holds `q`, from position `from` on. */
export function findWorkspacePeople(target: AdminTarget, search: { team_id?: string; q: string; from?: number; limit?: number }): Promise<WorkspacePeople> {
  const { from, limit, ...rest } = search;
  return callEmulatorAdmin(
    target,
    `workspace/people${query({ ...rest, from: from === undefined ? undefined : String(from), limit: limit === undefined ? undefined : String(limit) })}`,
    WorkspacePeopleWire,
  );
}

/**
 * GET /admin/workspace/history: a page of a conversation's messages with their threads (the newest, or the
 * older ones `cursor` names; with `message`, that message's thread only), and the member's ephemerals there.
 */
export function readWorkspaceHistory(
  target: AdminTarget,
  who: Member & { channel: string; cursor?: string; limit?: number; message?: string },
): Promise<WorkspaceHistory> {
  const { limit, ...rest } = who;
  return callEmulatorAdmin(target, `workspace/history${query({ ...rest, limit: limit === undefined ? undefined : String(limit) })}`, WorkspaceHistoryWire);
}

/** GET /admin/views: the member's open modals (root first) and App Homes. */
export function readMemberViews(target: AdminTarget, who: Member): Promise<MemberViews> {
  return callEmulatorAdmin(target, `views${query({ ...who })}`, MemberViewsWire);
}

type Act = Member & Record<string, unknown>;
const act = (target: AdminTarget, path: string, body: Act): Promise<MemberActAnswer> => callEmulatorAdmin(target, `act/${path}`, MemberActAnswerWire, body);

/** POST /admin/act/post: the member posts in a conversation (a thread with thread_ts). */
export const postAsMember = (target: AdminTarget, body: Act & { channel: string; text: string; thread_ts?: string }) => act(target, "post", body);
/** POST /admin/act/dm: the member writes to the app in their DM with it. */
export const messageApp = (target: AdminTarget, body: Act & { app_id: string; text: string }) => act(target, "dm", body);
/** POST /admin/act/react: the member reacts to a message (again: takes the reaction back). */
export const reactAsMember = (target: AdminTarget, body: Act & { channel: string; ts: string; name: string }) => act(target, "react", body);
/** POST /admin/act/open-home: the member opens the app's Home tab (app_home_opened). */
export const openAppHome = (target: AdminTarget, body: Act & { app_id: string }) => act(target, "open-home", body);
/** POST /admin/act/command: the member runs a slash command; the app's answer is in `result`. */
export const runSlashCommand = (target: AdminTarget, body: Act & { command: string; text?: string; channel?: string }) => act(target, "command", body);
/** POST /admin/act/click: the member clicks (or picks in) an element of a message or a view. */
export const clickElement = (target: AdminTarget, body: Act & { action_id: string }) => act(target, "click", body);
/** POST /admin/act/shortcut: the member uses a global or message shortcut. */
export const runShortcut = (target: AdminTarget, body: Act & { callback_id: string }) => act(target, "shortcut", body);
/** POST /admin/act/submit: the member submits the modal on top of their stack, with what they entered. */
export const submitView = (target: AdminTarget, body: Act & { view_id: string }) => act(target, "submit", body);
/** POST /admin/act/close-view: the member closes the modal on top (`clear`: the whole stack). */
export const closeView = (target: AdminTarget, body: Act & { view_id: string }) => act(target, "close-view", body);
/** POST /admin/act/join-team: a new person joins the workspace (team_join to the apps that subscribe); their record. */
export const addMember = (target: AdminTarget, body: { real_name: string; email?: string; team_id?: string }): Promise<JoinTeamAnswer> =>
  callEmulatorAdmin(target, "act/join-team", JoinTeamAnswerWire, body);
/**
 * POST /admin/act/suggest: the member types `value` into an external select; the app is asked for options
 * (block_suggestion, to its Options Load URL) and they come back in `result`.
 */
export const suggestOptions = (target: AdminTarget, body: Act & { action_id: string; value?: string }): Promise<SuggestAnswer> =>
  callEmulatorAdmin(target, "act/suggest", SuggestAnswerWire, body);

/**
 * GET /admin/workspace/stream: the member's live stream of workspace changes, its body passed on as it comes
 * (the emulator bounds it: open streams, bytes behind). Ends with `signal` (the browser left). A refusal is
 * relayed (429 too_many_streams, 404 user_not_found).
 */
export async function openWorkspaceStream(target: AdminTarget, who: Member, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const response = await fetchEmulatorAdmin(target, `workspace/stream${query({ ...who })}`, undefined, signal);
  if (response.ok && response.body && (response.headers.get("content-type") ?? "").startsWith("text/event-stream")) return response.body;
  const json = (await response.json().catch(() => null)) as { error?: unknown } | null;
  const code = typeof json?.error === "string" ? json.error : `http_${response.status}`;
  throw new AppError(
    { relayed: code, status: response.status >= 400 && response.status < 500 ? response.status : 502 },
    { message: `The emulator did not open a workspace stream (${code}).` },
  );
}
