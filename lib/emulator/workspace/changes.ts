/**
 * What changed in a workspace, told to whoever watches it (the admin surface's workspace stream,
 * admin/workspace-stream.ts, which the console's Workspace page reads): a message posted, changed or
 * deleted, a reaction, an ephemeral message shown to one member, one of a member's views opened, updated or
 * closed, a person who joined. A leaf module: the code that makes a change says so here, and nothing is kept when nobody watches.
 * Keyed by the Workspace object, so a reset (new workspaces) leaves old watchers with nothing to hear.
 */
import type { Message, Workspace } from "./workspace";

export type WorkspaceChange =
  | { type: "message_posted" | "message_changed"; channel: string; message: Message }
  | { type: "message_deleted"; channel: string; ts: string }
  | { type: "reaction"; channel: string; ts: string; user: string; reaction: string; added: boolean }
  /** Shown to `user` alone; never in the channel's history. */
  | { type: "ephemeral"; channel: string; user: string; message: Record<string, unknown> }
  /** One of `user`'s views (a modal or their App Home): `closed` when it left their stack. */
  | { type: "view"; user: string; app_id: string; view_id: string; view_type: "modal" | "home"; closed: boolean }
  /** A person joined the workspace (team_join): every member's people to act as and write to gain one. */
  | { type: "member_joined"; user: string; name: string };

type Listener = (change: WorkspaceChange) => void;

const WATCHERS = new WeakMap<Workspace, Set<Listener>>();

export function watchWorkspace(ws: Workspace, listener: Listener): () => void {
  let set = WATCHERS.get(ws);
  if (!set) {
    set = new Set();
    WATCHERS.set(ws, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

export function announceChange(ws: Workspace, change: WorkspaceChange): void {
  const set = WATCHERS.get(ws);
  if (!set) return;
  // A watcher that throws must not stop the change nor the other watchers.
  for (const listener of set) {
    try {
      listener(change);
    } catch {
      // The stream ends itself on its own errors.
    }
  }
}
