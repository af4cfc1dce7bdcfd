"use client";

import { useSyncExternalStore } from "react";
import { formatClockTime, formatDateTime } from "@/lib/format";

const noSubscription = () => () => {};
const readToday = () => new Date().toDateString();
const readNoDay = () => null;

/**
 * Today as the browser's clock has it, or null while the page hydrates. The server's locale and time zone
 * are not the person's: a time written by the server would be wrong, and would differ from the browser's
 * first render.
 */
function useToday(): string | null {
  return useSyncExternalStore(noSubscription, readToday, readNoDay);
}

/**
 * An instant as every page writes it (lib/format.ts): the time of day in the person's locale, with the date
 * too when `date` is "always", or "auto" and it is not today; to the minute with `precision` "minute". Empty until hydrated; the `dateTime`
 * attribute carries the instant for machines either way.
 */
export function LocalTime({
  at,
  date = "never",
  precision,
  className,
}: {
  at: number;
  date?: "never" | "auto" | "always";
  precision?: "second" | "minute";
  className?: string;
}) {
  const today = useToday();
  const hydrated = today !== null;
  const withDate = date === "always" || (date === "auto" && hydrated && new Date(at).toDateString() !== today);
  return (
    <time dateTime={new Date(at).toISOString()} className={className}>
      {hydrated ? (withDate ? formatDateTime(at, { precision }) : formatClockTime(at, { precision })) : ""}
    </time>
  );
}
