import type { Viewer } from "@/lib/viewer";
import type { TimelineEntry } from "./universal/timeline";

/** The person a timeline entry names as who did it (TimelineEntry's `who`). */
export type TimelinePerson = { id: string; name?: string };

/**
 * A display name fit for the timeline: control and format characters (bidirectional overrides among them)
 * and lone surrogates made spaces, cut to 80 code points, never inside a surrogate pair (a lone surrogate
 * is not valid JSON text, which the store's jsonb refuses).
 */
export function timelineName(name: string): string {
  return Array.from(name.replace(/[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu, " ").trim())
    .slice(0, 80)
    .join("")
    .trim();
}

/**
 * The person a timeline entry written for this viewer names ("who did it"), or undefined: the operator of a
 * console without sign-in, a request nobody signed in to (the install flow: null), or work outside a request.
 */
export function personOf(viewer: Viewer | null | undefined): TimelinePerson | undefined {
  if (viewer?.kind !== "member") return undefined;
  const name = timelineName(viewer.name);
  return { id: viewer.userId, ...(name ? { name } : {}) };
}

/** Puts the person on each entry that does not name who did it yet (in place: the entries stay the record's own). */
export function nameWhoDidIt(entries: readonly TimelineEntry[], person: TimelinePerson | undefined): void {
  if (!person || entries.every((entry) => entry.who?.name)) return;
  for (const entry of entries) {
    // An install names its authed user by id: the person signed in who did it adds their name.
    if (entry.who?.id === person.id && !entry.who.name && person.name) entry.who = person;
    entry.who ??= person;
  }
}
