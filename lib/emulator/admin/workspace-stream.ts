/**
 * GET {base}/admin/workspace/stream?team_id=&user=: a server-sent-events stream of what changes in a
 * workspace as one member sees it (workspace/changes.ts): messages posted, changed and deleted and reactions
 * in the conversations they can see; ephemeral messages shown to them; their views opened, updated and closed.
 * The console's Workspace page relays it to the browser (lib/emulator-admin/workspace.ts), so what an app
 * posts shows without a reload.
 *
 * Bounded as the console's own events stream is (lib/events/stream.ts): at most MAX_WORKSPACE_STREAMS open per
 * emulator (429 too_many_streams past it); each hands its connection a chunk only when the connection takes
 * one, and a viewer more than MAX_QUEUED_BYTES behind, or that took nothing for MAX_STALL_MS, is dropped (its
 * EventSource reconnects and reads the history again). A reset ends every stream of the old workspaces.
 */
import { WebApiError } from "../core/errors";
import type { Router } from "../core/router";
import type { EmulatorState } from "../types";
import { actingMember, adminWorkspace } from "../interactivity/parts";
import { findChannel } from "../workspace/channels";
import { watchWorkspace, type WorkspaceChange } from "../workspace/changes";
import { canSee } from "../workspace/membership";
import type { Workspace } from "../workspace/workspace";

/**
 * Open workspace streams per emulator: a page per member per tab, and a few tabs.
 * @internal exported for tests
 */
export const MAX_WORKSPACE_STREAMS = 32;
/**
 * How far behind one viewer may fall, in bytes queued for it and not yet taken by its connection.
 * @internal exported for tests
 */
export const MAX_QUEUED_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 15_000;
const MAX_STALL_MS = 45_000;

interface WorkspaceStreamLimits {
  maxStreams: number;
  maxQueuedBytes: number;
  heartbeatMs: number;
  maxStallMs: number;
}

const OPEN = new WeakMap<EmulatorState, Set<object>>();
const openOf = (state: EmulatorState) => {
  let set = OPEN.get(state);
  if (!set) OPEN.set(state, (set = new Set()));
  return set;
};

const encoder = new TextEncoder();

/** Whether `user` sees this change: their own ephemerals and views; messages and reactions where they can see; everyone a new member. */
function seenBy(state: EmulatorState, ws: Workspace, user: string, change: WorkspaceChange): boolean {
  if (change.type === "member_joined") return true;
  if (change.type === "ephemeral" || change.type === "view") return change.user === user;
  const channel = findChannel(ws, change.channel);
  return channel !== undefined && canSee(state, ws, channel, user);
}

function workspaceStream(state: EmulatorState, ws: Workspace, user: string, signal: AbortSignal, limits: WorkspaceStreamLimits): ReadableStream<Uint8Array> {
  const open = openOf(state);
  const token = {};
  const queue: Uint8Array[] = [];
  let queuedBytes = 0;
  let lastTakenAt = Date.now();
  let wake: (() => void) | undefined;
  let ended = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let unwatch = () => {};
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const end = (dropped: boolean) => {
    if (ended) return;
    ended = true;
    open.delete(token);
    clearInterval(heartbeat);
    unwatch();
    signal.removeEventListener("abort", onAbort);
    queue.length = 0;
    queuedBytes = 0;
    wake?.();
    try {
      if (dropped) controller.error(new Error("workspace viewer dropped"));
      else controller.close();
    } catch {
      // Already closed or cancelled.
    }
  };
  const onAbort = () => end(false);
  const push = (text: string) => {
    if (ended) return;
    if (queue.length === 0) lastTakenAt = Date.now();
    const chunk = encoder.encode(text);
    queue.push(chunk);
    queuedBytes += chunk.byteLength;
    if (queuedBytes > limits.maxQueuedBytes) return end(true);
    wake?.();
  };

  open.add(token);
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        push(`retry: 2000\n\nevent: ready\ndata: ${JSON.stringify({ team_id: ws.team.id, user })}\n\n`);
        unwatch = watchWorkspace(ws, (change) => {
          if (seenBy(state, ws, user, change)) push(`event: change\ndata: ${JSON.stringify(change)}\n\n`);
        });
        heartbeat = setInterval(() => {
          // A reset replaced the workspace: nothing more will come, so the viewer is told to come back.
          if (state.workspaces.get(ws.team.id) !== ws) return end(false);
          if (queue.length > 0 && Date.now() - lastTakenAt > limits.maxStallMs) return end(true);
          if (queue.length === 0) push(": keep-alive\n\n");
        }, limits.heartbeatMs);
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort);
      },
      async pull(c) {
        while (queue.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        const chunk = queue.shift();
        if (!chunk) return;
        queuedBytes -= chunk.byteLength;
        lastTakenAt = Date.now();
        c.enqueue(chunk);
      },
      cancel() {
        end(false);
      },
    },
    { highWaterMark: 0 },
  );
}

export function registerWorkspaceStreamRoute(router: Router, limits: Partial<WorkspaceStreamLimits> = {}): void {
  const bounds: WorkspaceStreamLimits = {
    maxStreams: limits.maxStreams ?? MAX_WORKSPACE_STREAMS,
    maxQueuedBytes: limits.maxQueuedBytes ?? MAX_QUEUED_BYTES,
    heartbeatMs: limits.heartbeatMs ?? HEARTBEAT_MS,
    maxStallMs: limits.maxStallMs ?? MAX_STALL_MS,
  };
  router.get("/admin/workspace/stream", (ctx) => {
    const query = new URL(ctx.request.url).searchParams;
    const ws = adminWorkspace(ctx.state, query.get("team_id"));
    const user = actingMember(ws, query.get("user") ?? undefined);
    if (openOf(ctx.state).size >= bounds.maxStreams) {
      throw new WebApiError("too_many_streams", { message: `At most ${bounds.maxStreams} workspace streams may be open at once.` }, { status: 429 });
    }
    const body = workspaceStream(ctx.state, ws, user, ctx.request.signal, bounds);
    return new Response(body, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" } });
  });
}
