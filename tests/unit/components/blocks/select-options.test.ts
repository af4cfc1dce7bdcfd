import { describe, expect, it } from "vitest";
import type { DirectoryConversation, DirectoryMember } from "@/components/blocks/block-context";
import {
  directoryEntries,
  initialEntries,
  initialSuggestState,
  matching,
  minQueryLength,
  statusText,
  suggestAnswered,
  suggestTyped,
} from "@/components/blocks/select-options";

const members: DirectoryMember[] = [
  { id: "U01ADA", name: "Ada Lovelace" },
  { id: "U02GRACE", name: "Grace Hopper" },
  { id: "U03BOT", name: "Triage", bot: true },
];
const conversations: DirectoryConversation[] = [
  { id: "C01GEN", name: "general", type: "public" },
  { id: "C02OLD", name: "old-news", type: "public", is_archived: true },
  { id: "G01SEC", name: "security", type: "private" },
  { id: "D01ADA", name: "Ada Lovelace", type: "im", with: ["U01ADA"] },
  { id: "D02BOT", name: "Triage", type: "im", with: ["U03BOT"] },
  { id: "G02MP", name: "ada, grace", type: "mpim", with: ["U01ADA", "U02GRACE"] },
  { id: "C03EXT", name: "partners", type: "public", is_ext_shared: true },
];
const directory = { members, conversations, currentConversation: "C01GEN" };
const values = (entries: { value: string }[]) => entries.map((e) => e.value);

describe("what users, conversations and channels selects list", () => {
  it("lists every member, an app's bot user marked as one", () => {
    expect(directoryEntries("users", { type: "users_select" }, directory)).toEqual([
      { value: "U01ADA", label: "Ada Lovelace" },
      { value: "U02GRACE", label: "Grace Hopper" },
      { value: "U03BOT", label: "Triage (app)" },
    ]);
  });

  it("lists a channels select's public channels only, none archived", () => {
    expect(values(directoryEntries("channels", { type: "channels_select" }, directory))).toEqual(["C01GEN", "C03EXT"]);
  });

  it("lists every open conversation without a filter, each labelled as a client writes it", () => {
    const entries = directoryEntries("conversations", { type: "conversations_select" }, directory);
    expect(values(entries)).toEqual(["C01GEN", "G01SEC", "D01ADA", "D02BOT", "G02MP", "C03EXT"]);
    expect(entries.slice(0, 2).map((e) => e.label)).toEqual(["#general", "🔒 security"]);
  });

  it("applies a conversations filter: include, exclude_bot_users, exclude_external_shared_channels", () => {
    const only = (filter: unknown) => values(directoryEntries("conversations", { type: "conversations_select", filter }, directory));
    expect(only({ include: ["im", "mpim"] })).toEqual(["D01ADA", "D02BOT", "G02MP"]);
    expect(only({ include: ["private"] })).toEqual(["G01SEC"]);
    expect(only({ include: ["im"], exclude_bot_users: true })).toEqual(["D01ADA"]);
    expect(only({ include: ["public"], exclude_external_shared_channels: true })).toEqual(["C01GEN"]);
    // An unknown type in include is ignored, as is an empty include: all types then.
    expect(only({ include: [] })).toHaveLength(6);
  });

  it("narrows as the member types, by name or id, case and accents aside, a leading # or @ ignored", () => {
    const people = directoryEntries("users", { type: "users_select" }, directory);
    expect(values(matching(people, "GRA"))).toEqual(["U02GRACE"]);
    expect(values(matching(people, "@ada"))).toEqual(["U01ADA"]);
    expect(values(matching(people, "u03"))).toEqual(["U03BOT"]);
    expect(values(matching([{ value: "C1", label: "#équipe" }], "#equ"))).toEqual(["C1"]);
    expect(matching(people, "")).toHaveLength(3);
    expect(matching(people, "nobody")).toEqual([]);
  });
});

describe("what a select shows chosen when it appears", () => {
  it("takes initial_user(s), initial_conversation(s) and initial_channel(s), named from the lists", () => {
    expect(initialEntries("users", { initial_user: "U02GRACE" }, directory).entries).toEqual([{ value: "U02GRACE", label: "Grace Hopper" }]);
    expect(values(initialEntries("users", { initial_users: ["U01ADA", "U02GRACE"] }, directory).entries)).toEqual(["U01ADA", "U02GRACE"]);
    expect(initialEntries("conversations", { initial_conversations: ["G01SEC"] }, directory).entries[0]?.label).toBe("🔒 security");
    expect(initialEntries("channels", { initial_channel: "C01GEN" }, directory).entries[0]?.label).toBe("#general");
    // An id the page does not know shows as itself.
    expect(initialEntries("users", { initial_user: "U09NEW" }, directory).entries).toEqual([{ value: "U09NEW", label: "U09NEW" }]);
  });

  it("defaults to the conversation the member is in, with default_to_current_conversation, if the filter lets it in", () => {
    const element = { type: "conversations_select", default_to_current_conversation: true };
    expect(initialEntries("conversations", element, directory)).toEqual({ entries: [{ value: "C01GEN", label: "#general" }], defaulted: true });
    expect(initialEntries("conversations", { ...element, filter: { include: ["im"] } }, directory).entries).toEqual([]);
    expect(initialEntries("conversations", { ...element, initial_conversation: "G01SEC" }, directory).defaulted).toBe(false);
    expect(initialEntries("conversations", { type: "conversations_select" }, directory).entries).toEqual([]);
  });

  it("keeps an external select's initial options whole", () => {
    const option = { text: { type: "plain_text", text: "Billing" }, value: "billing" };
    expect(initialEntries("external", { initial_option: option }, {}).entries).toEqual([{ value: "billing", label: "Billing", option }]);
  });
});

describe("an external select's suggestions as the member types", () => {
  const answer = (...names: string[]) => ({ options: names.map((n) => ({ text: { type: "plain_text", text: n.toUpperCase() }, value: n })) });

  it("asks nothing under min_query_length (3 by default), then asks for each query", () => {
    expect(minQueryLength({})).toBe(3);
    expect(minQueryLength({ min_query_length: 0 })).toBe(0);
    let state = initialSuggestState(true);
    const short = suggestTyped(state, "pl", 3, true);
    expect(short).toMatchObject({ ask: false, state: { status: "short" } });
    const asked = suggestTyped(short.state, "pla", 3, true);
    expect(asked).toMatchObject({ ask: true, state: { status: "loading", query: "pla" } });
    state = suggestAnswered(asked.state, asked.state.asked, answer("platform"));
    expect(state.status).toBe("ready");
    expect(state.groups).toEqual([{ label: null, entries: [{ value: "platform", label: "PLATFORM", option: answer("platform").options[0] }] }]);
  });

  it("drops a late answer to an older query: the newer one's stays", () => {
    const first = suggestTyped(initialSuggestState(true), "pl", 2, true).state;
    const second = suggestTyped(first, "pla", 2, true).state;
    const answeredNewer = suggestAnswered(second, second.asked, answer("platform"));
    const lateOlder = suggestAnswered(answeredNewer, first.asked, answer("platform", "plugins"));
    expect(lateOlder).toBe(answeredNewer);
    // An answer to a query the member has since shortened below the minimum is dropped too.
    const shortened = suggestTyped(second, "p", 2, true).state;
    expect(suggestAnswered(shortened, second.asked, answer("platform")).status).toBe("short");
  });

  it("reads option_groups, says why it failed, and says where nothing can be asked", () => {
    const asked = suggestTyped(initialSuggestState(true), "bil", 3, true).state;
    const grouped = suggestAnswered(asked, asked.asked, {
      option_groups: [{ label: { type: "plain_text", text: "Money" }, options: [{ text: { type: "plain_text", text: "Billing" }, value: "billing" }] }],
    });
    expect(grouped.groups.map((g) => [g.label, g.entries.map((e) => e.value)])).toEqual([["Money", ["billing"]]]);
    const failed = suggestAnswered(asked, asked.asked, { error: "dispatch_failed: the app did not answer within 3 seconds." });
    expect(failed).toMatchObject({ status: "failed", groups: [], error: "dispatch_failed: the app did not answer within 3 seconds." });
    expect(initialSuggestState(false).status).toBe("unavailable");
    expect(suggestTyped(initialSuggestState(false), "billing", 3, false)).toMatchObject({ ask: false, state: { status: "unavailable" } });
  });
});

describe("what the open list says when it shows nothing, or not yet", () => {
  it("says why the explorer's preview cannot ask the app, or list the workspace", () => {
    expect(statusText("external", initialSuggestState(false), 3, "", 0, false)).toMatch(/^This preview cannot ask the app for options/);
    expect(statusText("users", initialSuggestState(false), 3, "", 0, false)).toMatch(/^This preview has no workspace to list from/);
  });

  it("says how much to type, that it is loading, that there are no options, and why it failed", () => {
    const short = initialSuggestState(true);
    expect(statusText("external", short, 3, "", 0, true)).toBe("Type at least 3 characters to see the app's options.");
    expect(statusText("external", short, 1, "", 0, true)).toBe("Type at least 1 character to see the app's options.");
    const loading = suggestTyped(short, "bil", 3, true).state;
    expect(statusText("external", loading, 3, "bil", 0, true)).toBe("Loading the app's options…");
    const none = suggestAnswered(loading, loading.asked, { options: [] });
    expect(statusText("external", none, 3, "bil", 0, true)).toBe("No options: the app offered none for “bil”.");
    const failed = suggestAnswered(loading, loading.asked, { error: "dispatch_failed: the app did not answer within 3 seconds." });
    expect(statusText("external", failed, 3, "bil", 0, true)).toBe(
      "The app's options could not be loaded: dispatch_failed: the app did not answer within 3 seconds.",
    );
    expect(statusText("users", short, 3, "zed", 0, true)).toBe("No matches for “zed”.");
    expect(statusText("users", short, 3, "", 2, true)).toBeNull();
  });
});
