/**
 * A workspace's views (modals and App Home tabs) and the trigger ids that open them: the state behind
 * views.open, views.push, views.update and views.publish (web-api/methods/views.ts). A leaf module: it
 * imports nothing of the emulator, so workspace.ts can hold its state.
 *
 * On the platform a trigger_id comes with an interaction (a slash command, a shortcut, a button) and is
 * good once, for 3 seconds (https://docs.slack.dev/interactivity/handling-user-interaction). Every
 * interaction the emulator sends mints one (interactivity/); `POST {base}/admin/triggers` (admin/triggers.ts)
 * issues one without an interaction, optionally from inside an open modal (what views.push needs).
 */
import { randomBytes } from "node:crypto";

/** How long a trigger id may be exchanged, in ms of the emulator's clock. */
export const TRIGGER_LIFETIME_MS = 3000;

export interface Trigger {
  id: string;
  appId: string;
  /** The member who interacted: the view opens for them. */
  userId: string;
  issuedAt: number;
  expiresAt: number;
  /** The modal the interaction happened in (views.push stacks onto it). */
  viewId?: string;
  /** Set when a views.open or views.push exchanged it: a trigger is single use. */
  exchangedAt?: number;
}

export interface StoredView {
  id: string;
  teamId: string;
  appId: string;
  botId: string;
  /** Whom the view shows to. */
  userId: string;
  type: "modal" | "home";
  /** The view as the app gave it, block ids filled in. */
  view: Record<string, unknown>;
  hash: string;
  rootViewId: string;
  previousViewId: string | null;
  externalId: string;
}

export interface ViewsState {
  triggers: Map<string, Trigger>;
  views: Map<string, StoredView>;
  /** Each member's open modal stack per app (`app:user` → view ids, root first; at most 3). */
  stacks: Map<string, string[]>;
  /** Each member's published App Home per app (`app:user` → view id). */
  homes: Map<string, string>;
  /** external_id → view id, per app (`app:external_id`). */
  externalIds: Map<string, string>;
}

export function createViewsState(): ViewsState {
  return { triggers: new Map(), views: new Map(), stacks: new Map(), homes: new Map(), externalIds: new Map() };
}

/** The key of what an app keeps per member (its modal stack, its App Home). */
export function appUserKey(appId: string, userId: string): string {
  return `${appId}:${userId}`;
}

const ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A random id of the platform's shape: a prefix and upper-case letters and digits (`V0…`, `F0…`). */
export function randomPlatformId(prefix: string, length = 10): string {
  const bytes = randomBytes(length);
  let out = `${prefix}0`;
  for (let i = 1; i < length; i++) out += ID_ALPHABET[bytes[i]! % ID_ALPHABET.length];
  return out;
}

/** A trigger id of the platform's shape (`12345.98765.abcd2358fdea`): seconds, a number, 32 hex digits. */
export function issueTrigger(state: ViewsState, init: { appId: string; userId: string; viewId?: string }, now: number): Trigger {
  const id = `${Math.floor(now / 1000)}.${randomBytes(4).readUInt32BE(0)}.${randomBytes(16).toString("hex")}`;
  const trigger: Trigger = {
    id,
    appId: init.appId,
    userId: init.userId,
    issuedAt: now,
    expiresAt: now + TRIGGER_LIFETIME_MS,
    ...(init.viewId ? { viewId: init.viewId } : {}),
  };
  // Spent and expired ones are forgotten as new ones are made (as Socket Mode's tickets are), a minute after
  // they expire so that one used late is still told expired_trigger_id.
  for (const [key, old] of state.triggers) if (now >= old.expiresAt + TRIGGER_FORGET_AFTER_MS) state.triggers.delete(key);
  state.triggers.set(id, trigger);
  return trigger;
}

/** How long past its expiry a trigger id is still known (answered expired_trigger_id rather than invalid). */
export const TRIGGER_FORGET_AFTER_MS = 60_000;

/** Forgets views that closed (a modal off its stack): nothing can show, update or submit them again. */
export function forgetViews(state: ViewsState, ids: Iterable<string>): void {
  for (const id of ids) {
    const view = state.views.get(id);
    if (!view || view.type !== "modal") continue;
    state.views.delete(id);
    const externalKey = appUserKey(view.appId, view.externalId);
    if (view.externalId && state.externalIds.get(externalKey) === id) state.externalIds.delete(externalKey);
  }
}

/** A view hash as the platform writes one (`1569262015.55b5e41b`): it changes with every update. */
export function viewHash(now: number): string {
  return `${Math.floor(now / 1000)}.${randomBytes(4).toString("hex")}`;
}
