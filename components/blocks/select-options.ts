/**
 * What a users, conversations, channels or external select lists, as the platform's client lists it: the
 * workspace's members, the member's conversations (narrowed by the element's `filter`), the channels, or
 * the options the app answered a block_suggestion with; narrowed as the member types. Pure, so the
 * renderer's combobox (combo-select.tsx) only draws and asks.
 */
import type { DirectoryConversation, DirectoryMember, SuggestAnswer } from "./block-context";
import { asObject, asObjects, asString, textOf, type Json } from "./shape";

type DirectoryKind = "users" | "conversations" | "channels";
export type ComboKind = DirectoryKind | "external";

/** One entry of the list: the value sent, the label shown; an external option keeps the app's option whole. */
export interface SelectEntry {
  value: string;
  label: string;
  option?: Json;
}

/** A run of entries under a label (an external select's option_groups), or without one. */
export interface EntryGroup {
  label: string | null;
  entries: SelectEntry[];
}

interface Directory {
  members?: readonly DirectoryMember[];
  conversations?: readonly DirectoryConversation[];
  currentConversation?: string;
  userName?(id: string): string | undefined;
  channelName?(id: string): string | undefined;
}

/** The combobox kind of a select element's type (`multi_` or not), or null for a static select and the rest. */
export function comboKindOf(type: string): ComboKind | null {
  const kind = /^(?:multi_)?(users|conversations|channels|external)_select$/.exec(type)?.[1];
  return (kind as ComboKind | undefined) ?? null;
}

const CONVERSATION_TYPES = ["public", "private", "im", "mpim"] as const;

/**
 * Whether a conversations select's `filter` lets the conversation in: `include` (im, mpim, private, public;
 * all when absent or empty), `exclude_bot_users` (a DM with a bot), `exclude_external_shared_channels`.
 */
function passesFilter(element: Json, conversation: DirectoryConversation, members: readonly DirectoryMember[] = []): boolean {
  const filter = asObject(element.filter);
  if (!filter) return true;
  const include = Array.isArray(filter.include) ? filter.include.filter((t): t is string => CONVERSATION_TYPES.includes(t as never)) : [];
  if (include.length > 0 && !include.includes(conversation.type)) return false;
  if (filter.exclude_external_shared_channels === true && conversation.is_ext_shared) return false;
  if (filter.exclude_bot_users === true && (conversation.type === "im" || conversation.type === "mpim")) {
    const bots = new Set(members.filter((m) => m.bot).map((m) => m.id));
    if ((conversation.with ?? []).some((id) => bots.has(id))) return false;
  }
  return true;
}

/** A conversation's label as the member's client writes it: #public, 🔒private, a DM by its name. */
function conversationLabel(conversation: DirectoryConversation): string {
  if (conversation.type === "public") return `#${conversation.name}`;
  if (conversation.type === "private") return `🔒 ${conversation.name}`;
  return conversation.name;
}

/** Everything the select offers before the member types: members, filtered conversations, or public channels. */
export function directoryEntries(kind: DirectoryKind, element: Json, directory: Directory): SelectEntry[] {
  if (kind === "users") return (directory.members ?? []).map((m) => ({ value: m.id, label: m.bot ? `${m.name} (app)` : m.name }));
  const open = (directory.conversations ?? []).filter((c) => !c.is_archived);
  const listed = kind === "channels" ? open.filter((c) => c.type === "public") : open.filter((c) => passesFilter(element, c, directory.members));
  return listed.map((c) => ({ value: c.id, label: conversationLabel(c) }));
}

/** An option object the app sent, as an entry (null when it has no value). */
function optionEntry(option: Json): SelectEntry | null {
  const value = asString(option.value);
  return value === undefined ? null : { value, label: textOf(option.text) || value, option };
}

const INITIAL_IDS: Record<DirectoryKind, [string, string]> = {
  users: ["initial_user", "initial_users"],
  conversations: ["initial_conversation", "initial_conversations"],
  channels: ["initial_channel", "initial_channels"],
};

/**
 * What the select shows chosen when it appears: its `initial_*` field, else (a conversations select with
 * `default_to_current_conversation`) the conversation the member is in, when the filter lets it in.
 * `defaulted` says the choice came from the member's place, not the element, so the view's state must learn it.
 */
export function initialEntries(kind: ComboKind, element: Json, directory: Directory): { entries: SelectEntry[]; defaulted: boolean } {
  if (kind === "external") {
    const options = [asObject(element.initial_option), ...asObjects(element.initial_options)];
    return { entries: options.flatMap((o) => (o ? (optionEntry(o) ?? []) : [])), defaulted: false };
  }
  const [one, many] = INITIAL_IDS[kind];
  const ids = [element[one], ...(Array.isArray(element[many]) ? element[many] : [])].filter((v): v is string => typeof v === "string" && v !== "");
  const known = directoryEntries(kind, element, directory);
  const labelOf = (id: string) => known.find((e) => e.value === id)?.label ?? (kind === "users" ? directory.userName?.(id) : directory.channelName?.(id)) ?? id;
  if (ids.length > 0) return { entries: ids.map((id) => ({ value: id, label: labelOf(id) })), defaulted: false };
  const current = directory.currentConversation;
  if (kind === "conversations" && element.default_to_current_conversation === true && current) {
    const here = known.find((e) => e.value === current);
    if (here) return { entries: [here], defaulted: true };
  }
  return { entries: [], defaulted: false };
}

/** The entries whose label or id holds what the member typed (case and accents aside); all when nothing is typed. */
export function matching(entries: readonly SelectEntry[], query: string): SelectEntry[] {
  const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const typed = fold(query.trim().replace(/^[#@]/, ""));
  if (typed === "") return [...entries];
  return entries.filter((e) => fold(e.label).includes(typed) || fold(e.value).includes(typed));
}

/** An external select's `min_query_length`: 3 unless the element says otherwise. */
export function minQueryLength(element: Json): number {
  const n = element.min_query_length;
  return typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : 3;
}

/** The app's block_suggestion answer as groups of entries (one unlabelled group for `options`). */
function suggestedGroups(answer: SuggestAnswer): EntryGroup[] {
  if ("options" in answer) return [{ label: null, entries: answer.options.flatMap((o) => optionEntry(o) ?? []) }];
  if ("option_groups" in answer) {
    return answer.option_groups.map((g) => ({ label: textOf(g.label) || null, entries: asObjects(g.options).flatMap((o) => optionEntry(o) ?? []) }));
  }
  return [];
}

/**
 * An external select's list as the member types: `short` until `min_query_length` characters, `loading`
 * while the app is asked, then its options (`ready`, maybe none) or why there are none (`failed`,
 * `unavailable` where nothing can be asked). `asked` numbers the questions: an answer to any but the last is
 * dropped, so a late answer for an older query never replaces a newer one.
 */
export interface SuggestState {
  status: "short" | "loading" | "ready" | "failed" | "unavailable";
  query: string;
  asked: number;
  groups: EntryGroup[];
  error?: string;
}

export const initialSuggestState = (canAsk: boolean): SuggestState => ({
  status: canAsk ? "short" : "unavailable",
  query: "",
  asked: 0,
  groups: [],
});

/** The member typed `query`: the state to show, and whether to ask the app (as question number `asked`). */
export function suggestTyped(state: SuggestState, query: string, minLength: number, canAsk: boolean): { state: SuggestState; ask: boolean } {
  const asked = state.asked + 1;
  if (!canAsk) return { state: { ...state, status: "unavailable", query, asked, groups: [] }, ask: false };
  if (query.length < minLength) return { state: { status: "short", query, asked, groups: [] }, ask: false };
  return { state: { status: "loading", query, asked, groups: state.groups }, ask: true };
}

/** The app's answer to question `asked`: taken only when it is the last one asked. */
export function suggestAnswered(state: SuggestState, asked: number, answer: SuggestAnswer): SuggestState {
  if (asked !== state.asked) return state;
  if ("error" in answer) return { ...state, status: "failed", groups: [], error: answer.error };
  return { ...state, status: "ready", groups: suggestedGroups(answer), error: undefined };
}

/** The line under the list that says what there is to see, or why there is nothing. */
export function statusText(kind: ComboKind, suggestion: SuggestState, min: number, query: string, listed: number, hasDirectory: boolean): string | null {
  if (kind !== "external") {
    if (!hasDirectory) return "This preview has no workspace to list from: in the Workspace page the select lists its members and channels.";
    return listed === 0 ? (query ? `No matches for “${query}”.` : "Nothing to list.") : null;
  }
  switch (suggestion.status) {
    case "unavailable":
      return "This preview cannot ask the app for options: an external select's options come from the app (block_suggestion) once the message is in a workspace.";
    case "short":
      return min > 0 ? `Type at least ${min} character${min === 1 ? "" : "s"} to see the app's options.` : null;
    case "loading":
      return "Loading the app's options…";
    case "failed":
      return `The app's options could not be loaded: ${suggestion.error ?? "no answer"}`;
    case "ready":
      return listed === 0 ? `No options: the app offered none for “${suggestion.query}”.` : null;
  }
}
