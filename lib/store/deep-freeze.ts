import "server-only";

/**
 * Freezes `value` and everything it holds (plain objects and arrays, as the store's records are): what a
 * cache shares with its readers instead of copying it for each one, so that a reader that tried to change it
 * would throw (strict mode) rather than change every later reader's record.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
