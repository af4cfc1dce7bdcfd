"use client";

import { useSyncExternalStore } from "react";
import { formatClockTime, formatDateTime } from "@/lib/format";

const noSubscription = () => () => {};

/**
 * False while the page hydrates, true after. The server's locale and time zone are not the person's: a time
 * written by the server would be wrong, and would differ from the browser's first render.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

const sameDay = (a: number, b: number) => new Date(a).toDateString() === new Date(b).toDateString();

/**
 * An instant as every page writes it (lib/format.ts): the time of day in the person's locale, with the date
 * too when `date` is "always", or "auto" and it is not today. Empty until hydrated; the `dateTime`
 * attribute carries the instant for machines either way.
 */
export function LocalTime({ at, date = "never", className }: { at: number; date?: "never" | "auto" | "always"; className?: string }) {
  const hydrated = useHydrated();
  const withDate = date === "always" || (date === "auto" && hydrated && !sameDay(at, Date.now()));
  return (
    <time dateTime={new Date(at).toISOString()} className={className}>
      {hydrated ? (withDate ? formatDateTime(at) : formatClockTime(at)) : ""}
    </time>
  );
}
