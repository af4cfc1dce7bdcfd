"use client";

import type { WorkspaceMemberWire } from "@/lib/emulator-admin/universal/schemas";

export type Place = { kind: "conversation"; id: string } | { kind: "home"; app_id: string };

/**
 * The member's channels (those they are in first), their DMs (with the app's bot, with other members), each
 * installed app with its Home tab, and the people the page offers to act as (one who just joined among them).
 */
export function Sidebar({
  member,
  place,
  onPlace,
  onPerson,
}: {
  member: WorkspaceMemberWire;
  place: Place | null;
  onPlace: (place: Place) => void;
  /** Act as this person (the "You are" picker's choice). */
  onPerson: (userId: string) => void;
}) {
  const channels = member.conversations.filter((c) => (c.type === "public" || c.type === "private") && !c.is_archived);
  const mine = channels.filter((c) => c.is_member);
  const direct = member.conversations.filter((c) => c.type === "im" || c.type === "mpim");
  const item = (current: boolean) =>
    `block w-full truncate rounded px-2 py-1 text-left text-sm ${current ? "bg-emerald-700 font-medium text-white" : "text-slate-800 hover:bg-slate-100"}`;
  return (
    <nav aria-label="Conversations" className="space-y-4">
      <div>
        <h2 className="px-2 text-xs font-semibold uppercase tracking-wide text-slate-600">Channels</h2>
        <ul>
          {mine.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                aria-current={place?.kind === "conversation" && place.id === c.id ? "page" : undefined}
                className={item(place?.kind === "conversation" && place.id === c.id)}
                onClick={() => onPlace({ kind: "conversation", id: c.id })}
              >
                {c.type === "private" ? "🔒 " : "# "}
                {c.name}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h2 className="px-2 text-xs font-semibold uppercase tracking-wide text-slate-600">Direct messages</h2>
        <ul>
          {direct.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                aria-current={place?.kind === "conversation" && place.id === c.id ? "page" : undefined}
                className={item(place?.kind === "conversation" && place.id === c.id)}
                onClick={() => onPlace({ kind: "conversation", id: c.id })}
              >
                {c.name}
              </button>
            </li>
          ))}
          {direct.length === 0 && <li className="px-2 text-xs text-slate-600">None yet: write to an app below.</li>}
        </ul>
      </div>
      <div>
        <h2 className="px-2 text-xs font-semibold uppercase tracking-wide text-slate-600">Apps</h2>
        <ul>
          {member.apps.map((a) => (
            <li key={a.app_id}>
              <button
                type="button"
                aria-current={place?.kind === "home" && place.app_id === a.app_id ? "page" : undefined}
                className={item(place?.kind === "home" && place.app_id === a.app_id)}
                onClick={() => onPlace({ kind: "home", app_id: a.app_id })}
              >
                {a.name}
              </button>
            </li>
          ))}
          {member.apps.length === 0 && <li className="px-2 text-xs text-slate-600">No app is installed in this workspace yet.</li>}
        </ul>
      </div>
      <div>
        <h2 className="px-2 text-xs font-semibold uppercase tracking-wide text-slate-600">People</h2>
        <ul aria-label="People">
          {member.people.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                aria-current={p.id === member.user ? "true" : undefined}
                title={p.id === member.user ? "You" : `Act as ${p.name}`}
                className={item(false)}
                onClick={() => onPerson(p.id)}
              >
                {p.name}
                {p.id === member.user && <span className="text-slate-600"> (you)</span>}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
