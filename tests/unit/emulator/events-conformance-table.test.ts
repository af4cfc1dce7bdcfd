import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EVENTS_END, EVENTS_START, eventsConformanceTable, withEventsConformanceTable } from "@/scripts/method-catalog/events-conformance";
import { EVENT_CATALOG, type EventKind } from "@/lib/emulator/events/event-catalog";
import { SOCKET_MODE_MESSAGES } from "@/lib/emulator/socket-mode/protocol";

const DOC = fileURLToPath(new URL("../../../docs/emulator.md", import.meta.url));

/** The committed events rows, by subscription cell. */
function committedRows(): Map<string, string[]> {
  const doc = readFileSync(DOC, "utf8");
  const table = doc.slice(doc.indexOf(EVENTS_START), doc.indexOf("Socket Mode's messages:"));
  return new Map(
    table
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) => {
        const cells = line.split(" | ").map((cell) => cell.replace(/^\| |\|$/g, "").trim());
        return [cells[1]!.replaceAll("`", ""), cells];
      }),
  );
}

describe("docs/emulator.md's events and Socket Mode conformance table", () => {
  it("is what the code makes of it today (run `npm run conformance` when this fails)", () => {
    const doc = readFileSync(DOC, "utf8");
    expect(doc === withEventsConformanceTable(doc, EVENT_CATALOG, SOCKET_MODE_MESSAGES), "the events table is out of date: run npm run conformance").toBe(true);
  });

  it("has a row per event subscription with its type, scopes, receivers and what sends it, and a row per Socket Mode message", () => {
    const rows = committedRows();
    expect([...rows.keys()]).toEqual(EVENT_CATALOG.map((kind) => kind.subscription));
    expect(rows.get("message.channels")?.slice(0, 5)).toEqual(["`message`", "`message.channels`", "`channels:history`", "those in the conversation", "yes"]);
    expect(rows.get("channel_created")?.slice(0, 5)).toEqual(["`channel_created`", "`channel_created`", "`channels:read`", "the workspace's apps", "yes"]);
    expect(rows.get("member_joined_channel")?.[2]).toBe("`channels:read` (`groups:read` in a private channel)");
    expect(rows.get("tokens_revoked")?.slice(2, 5)).toEqual(["none", "the app concerned", "no"]);
    const doc = readFileSync(DOC, "utf8");
    expect(doc).toContain("| `disconnect` | to the app | `reason`: `refresh_requested`, `warning`, `link_disabled`; `debug_info` | yes |");
    expect(doc).toContain("| `events_api` | to the app |");
  });

  it("changes when the code does: an event's scope changed, an event added", () => {
    const doc = readFileSync(DOC, "utf8");
    const rescoped = EVENT_CATALOG.map((kind): EventKind => (kind.subscription === "file_shared" ? { ...kind, scopes: ["files:write"] } : kind));
    expect(withEventsConformanceTable(doc, rescoped, SOCKET_MODE_MESSAGES)).not.toBe(doc);
    const more: EventKind[] = [
      ...EVENT_CATALOG,
      { subscription: "team_join", type: "team_join", scopes: ["users:read"], conversation: false, userEvent: true, from: "a member joins" },
    ];
    expect(eventsConformanceTable(more, SOCKET_MODE_MESSAGES)).toContain(
      "| `team_join` | `team_join` | `users:read` | the workspace's apps | yes | a member joins |",
    );
  });

  it("refuses a document without its markers rather than losing the table", () => {
    expect(() => withEventsConformanceTable("# no table here\n", EVENT_CATALOG, SOCKET_MODE_MESSAGES)).toThrow(/markers/);
    expect(EVENTS_END).toMatch(/events-conformance:end/);
  });
});
