/**
 * Walking pages by hand. The stack holds the cursor that fetched each page visited ("" for the first), so
 * "Previous page" re-sends the cursor below the top, and "Next page" pushes the response's next_cursor.
 * Cursors expire (spec 8), so going back re-fetches rather than replaying a stale copy.
 */

import type { ExplorerRequest } from "./params";

export interface PageStack {
  /** cursors[i] fetched page i + 1. */
  cursors: string[];
}

export const START: PageStack = { cursors: [""] };

export function pageNumber(stack: PageStack): number {
  return stack.cursors.length;
}

export function currentCursor(stack: PageStack): string {
  return stack.cursors[stack.cursors.length - 1] ?? "";
}

export function pushPage(stack: PageStack, nextCursor: string): PageStack {
  return { cursors: [...stack.cursors, nextCursor] };
}

export function popPage(stack: PageStack): PageStack {
  return stack.cursors.length > 1 ? { cursors: stack.cursors.slice(0, -1) } : stack;
}

/** A walk that starts at a hand-written cursor: its page number is unknown, so it counts from there. */
function startAt(cursor: string): PageStack {
  return cursor === "" ? START : { cursors: [cursor] };
}

/**
 * Where a Send from the form lands. With the cursor of the page shown, to the same method, installation and
 * token, it goes on with that walk (say, after changing limit on page 3), so page numbers and Previous stay
 * true; any other cursor, method or token starts a walk of its own.
 */
export function stackForSend(stack: PageStack, shown: ExplorerRequest | null, form: ExplorerRequest): { stack: PageStack; continues: boolean } {
  const continues =
    shown !== null &&
    form.cursor === currentCursor(stack) &&
    form.method === shown.method &&
    form.installation === shown.installation &&
    form.tokenKind === shown.tokenKind;
  return continues ? { stack, continues } : { stack: startAt(form.cursor), continues };
}
