/** The wall-clock time of an epoch-ms instant, to the second, in the reader's locale (feeds, histories). */
export function formatClockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}
