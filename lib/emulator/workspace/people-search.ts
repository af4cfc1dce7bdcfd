/**
 * Finding a person of a workspace by name or id, for the console's Workspace page ("You are"): any member
 * may be acted as, generated or joined since, and a workspace may have many thousands. Members are
 * generated on demand (members.ts), so a search reads them in users.list order, a bounded stretch at a time:
 * `next` says where a further search goes on.
 */
import { botByUserId, memberAt, memberCount, memberIndexOf } from "./members";
import type { Workspace } from "./workspace";

/** How many positions one search reads at most: a workspace of the default size (3,000) in one. */
const PEOPLE_SEARCH_BUDGET = 20_000;

export interface PeopleFound {
  people: Array<{ id: string; name: string }>;
  /** The position to go on from, or null when the search has read to the last member. */
  next: number | null;
}

/** Lower case, without diacritics: "jose" finds José. */
function folded(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

/**
 * The people (never an app's bot user) whose real name, display name or handle holds `text`, or whose id is
 * `text`, from position `from` on: at most `limit`, reading at most `budget` positions.
 */
export function findPeople(ws: Workspace, text: string, options: { from?: number; limit: number; budget?: number; baseUrl: string }): PeopleFound {
  const wanted = folded(text.trim());
  const people: PeopleFound["people"] = [];
  const from = Math.max(0, options.from ?? 0);
  // An id names one person, wherever they are.
  const byId = memberIndexOf(ws, text.trim().toUpperCase());
  if (from === 0 && byId >= 0 && !botByUserId(ws, text.trim().toUpperCase())) {
    people.push({ id: text.trim().toUpperCase(), name: String(memberAt(ws, byId, options.baseUrl).real_name) });
  }
  const end = Math.min(memberCount(ws), from + (options.budget ?? PEOPLE_SEARCH_BUDGET));
  let index = from;
  for (; index < end && people.length < options.limit; index++) {
    if (index === byId) continue;
    const member = memberAt(ws, index, options.baseUrl);
    if (member.is_bot === true) continue;
    const profile = member.profile as { real_name?: string; display_name?: string };
    const names = [String(member.real_name ?? ""), profile.display_name ?? "", String(member.name ?? "")];
    if (names.some((name) => folded(name).includes(wanted))) people.push({ id: String(member.id), name: String(member.real_name) });
  }
  return { people, next: index < memberCount(ws) ? index : null };
}
