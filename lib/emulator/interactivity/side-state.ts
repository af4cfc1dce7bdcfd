/**
 * What interactivity keeps beside an emulator's state, for as long as the process runs (a WeakMap, never
 * saved, as Socket Mode's connections are): the response URLs handed out (30 minutes at most), the ephemeral
 * messages members were shown (never stored in a channel's history, as on the platform), and what members
 * entered in open views (`state.values`) and the errors an app put under their blocks.
 */
import type { EmulatorState } from "../types";

export interface ResponseUrl {
  id: string;
  kind: "commands" | "actions";
  teamId: string;
  appId: string;
  installationId: string;
  /** The conversation the interaction happened in, and the member. */
  channelId: string;
  userId: string;
  /** The message the interaction came from (block_actions, message_action), to replace or delete. */
  messageTs?: string;
  /** Epoch ms of the emulator's clock. */
  expiresAt: number;
  uses: number;
}

export interface EphemeralMessage {
  channel: string;
  /** The member who sees it. */
  user: string;
  ts: string;
  appId: string;
  /** The app's bot, when its bot token posted it (a user token posts as its member). */
  botId?: string;
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
}

export interface ViewEntries {
  /** state.values: block id → action id → the element's value object. */
  values: Record<string, Record<string, Record<string, unknown>>>;
  /** The errors the app's `response_action: errors` put under blocks, shown until the next submission. */
  errors?: Record<string, string>;
}

export interface InteractivityState {
  responseUrls: Map<string, ResponseUrl>;
  /** By `channel:ts`. */
  ephemerals: Map<string, EphemeralMessage>;
  /** By view id. */
  views: Map<string, ViewEntries>;
  /**
   * The options an app last offered a member in an external select (block_suggestion), by suggestionKey: a
   * pick among them reaches the app as the app wrote the option, its text too. Bounded: the oldest go first.
   */
  suggested: Map<string, Record<string, unknown>[]>;
}

/** How many external selects' last offers are kept (the oldest forgotten first). */
const MAX_SUGGESTED = 1000;

const STATES = new WeakMap<EmulatorState, InteractivityState>();

export function interactivityOf(state: EmulatorState): InteractivityState {
  let found = STATES.get(state);
  if (!found) {
    found = { responseUrls: new Map(), ephemerals: new Map(), views: new Map(), suggested: new Map() };
    STATES.set(state, found);
  }
  return found;
}

export function viewEntries(state: EmulatorState, viewId: string): ViewEntries {
  const views = interactivityOf(state).views;
  let entries = views.get(viewId);
  if (!entries) {
    entries = { values: {} };
    views.set(viewId, entries);
  }
  return entries;
}

/** Where a member is offered an external select's options: the member, the view or the message, the element. */
export function offeredKey(
  user: string,
  place: { kind: string; view?: { id: string }; channel?: { id: string }; message?: { ts: string } },
  blockId: string,
  actionId: string,
): string {
  const where = place.kind === "view" ? ["view", place.view?.id] : ["message", place.channel?.id, place.message?.ts];
  return JSON.stringify([user, ...where, blockId, actionId]);
}

/** Keeps the options the app offered (its `options`, or its `option_groups`' options) for the member's pick. */
export function rememberSuggested(state: EmulatorState, key: string, options: Record<string, unknown>[]): void {
  const suggested = interactivityOf(state).suggested;
  suggested.delete(key);
  suggested.set(key, options);
  if (suggested.size > MAX_SUGGESTED) suggested.delete(suggested.keys().next().value!);
}

export function suggestedOptions(state: EmulatorState, key: string): readonly Record<string, unknown>[] {
  return interactivityOf(state).suggested.get(key) ?? [];
}
