/**
 * Times of day, one way everywhere: to the second, as the reader's locale writes them ("2:21:37 PM" in
 * en-US, "14:21:37" in en-GB), in the reader's time zone. `locale` and `timeZone` are for tests; pages
 * leave them out, and write times only in the browser (components/local-time.tsx), whose locale and zone
 * are the person's, where the server's are not.
 */
export interface TimeFormatOptions {
  locale?: string;
  timeZone?: string;
  /** "minute" leaves the seconds out ("2:21 PM"), where a page shows times as a chat client does. */
  precision?: "second" | "minute";
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(withDate: boolean, options: TimeFormatOptions): Intl.DateTimeFormat {
  const key = `${withDate ? "d" : "t"}|${options.locale ?? ""}|${options.timeZone ?? ""}|${options.precision ?? "second"}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(options.locale, {
      ...(withDate ? { dateStyle: "medium" as const } : {}),
      timeStyle: options.precision === "minute" ? ("short" as const) : ("medium" as const),
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    });
    formatters.set(key, found);
  }
  return found;
}

/** The time of day of an epoch-ms instant: "2:21:37 PM", "14:21:37". */
export function formatClockTime(ms: number, options: TimeFormatOptions = {}): string {
  return formatter(false, options).format(ms);
}

/** An instant with its date, the time written as formatClockTime writes it: "Nov 25, 2026, 2:21:37 PM". */
export function formatDateTime(ms: number, options: TimeFormatOptions = {}): string {
  return formatter(true, options).format(ms);
}

/** A duration: "87 ms", "1.25 s", "12.4 s". */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** A size: "512 B", "24.3 kB", "1.20 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

const COUNT = new Intl.NumberFormat("en-US");

/**
 * A count with thousands separated: "100,000". One formatter for every count: toLocaleString makes a new
 * one at each call, which a walk's progress, redrawn several times a second, paid for every number it shows.
 */
export const formatCount = (n: number) => COUNT.format(n);
