/**
 * How long what interactivity hands out is kept, on the emulator's clock: nothing lives past its use, as
 * Socket Mode's hub forgets its tickets (socket-mode/hub.ts). What is spent or expired is removed when
 * something new of its kind is made, so a long session holds only what can still be used:
 *
 * - a response_url: 30 minutes or 5 uses (a few minutes past its expiry it is still known, and answers
 *   expired_url rather than no_service);
 * - an ephemeral message: until a member's client would have dropped it (EPHEMERAL_LIFETIME_MS), or deleted
 *   (delete_original), and at most MAX_EPHEMERALS in all;
 * - what a member entered in a modal: until it closes (forgetClosedViews, with the modal itself).
 */
import type { EmulatorState } from "../types";
import { forgetViews } from "../workspace/views";
import type { Workspace } from "../workspace/workspace";
import { interactivityOf, type EphemeralMessage } from "./side-state";

/** A response_url takes 5 messages… */
export const RESPONSE_URL_USES = 5;
/** …within 30 minutes. */
export const RESPONSE_URL_LIFETIME_MS = 30 * 60 * 1000;
/** How long past its expiry a response_url is still known (answered expired_url). */
const RESPONSE_URL_FORGET_AFTER_MS = 5 * 60 * 1000;

/** An ephemeral message shows until the member's client reloads: a day of the emulator's clock at most… */
export const EPHEMERAL_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** …and the newest of them only. */
export const MAX_EPHEMERALS = 1000;

/** Forgets the response_urls used up or expired a while ago. */
export function sweepResponseUrls(state: EmulatorState, now: number): void {
  const urls = interactivityOf(state).responseUrls;
  for (const [key, url] of urls) {
    if (url.uses >= RESPONSE_URL_USES || now >= url.expiresAt + RESPONSE_URL_FORGET_AFTER_MS) urls.delete(key);
  }
}

/** When an ephemeral message was shown: its ts is the emulator's clock, in seconds. */
const shownAt = (e: EphemeralMessage) => Number(e.ts) * 1000;

/** Keeps an ephemeral message a member was shown (where a click on it is found), forgetting old ones. */
export function rememberEphemeral(state: EmulatorState, ephemeral: EphemeralMessage, now: number): void {
  const ephemerals = interactivityOf(state).ephemerals;
  for (const [key, e] of ephemerals) if (now >= shownAt(e) + EPHEMERAL_LIFETIME_MS) ephemerals.delete(key);
  ephemerals.set(`${ephemeral.channel}:${ephemeral.ts}`, ephemeral);
  // A Map iterates in insertion order: the first are the oldest.
  for (const key of ephemerals.keys()) {
    if (ephemerals.size <= MAX_EPHEMERALS) break;
    ephemerals.delete(key);
  }
}

/** Forgets an ephemeral message the app deleted (delete_original): it shows nowhere any more. */
export function forgetEphemeral(state: EmulatorState, ephemeral: EphemeralMessage): void {
  interactivityOf(state).ephemerals.delete(`${ephemeral.channel}:${ephemeral.ts}`);
}

/** Forgets modals that closed, with what the member entered in them. */
export function forgetClosedViews(state: EmulatorState, ws: Workspace, ids: readonly string[]): void {
  forgetViews(ws.views, ids);
  const entries = interactivityOf(state).views;
  for (const id of ids) entries.delete(id);
}
