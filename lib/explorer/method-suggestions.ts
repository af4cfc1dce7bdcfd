/**
 * Which names to offer when the upstream answers `unknown_method`, or when a typed name is not in the
 * platform's catalog: only methods the upstream answers. The embedded emulator implements a few dozen of
 * the platform's methods and describes them itself (its method list), so while it is the upstream a
 * catalog method it lacks is no slip of the keyboard, and the names offered are among its own.
 */
import { findMethod, nearestMethodNames, type CatalogMethod } from "./catalog";

export type UpstreamKind = "emulator" | "platform";

/** The methods the upstream answers, or undefined while that is not known yet (a list still loading). */
export function answeredMethods(
  upstream: UpstreamKind | undefined,
  catalog: readonly CatalogMethod[] | undefined,
  emulated: ReadonlyMap<string, { name: string }> | undefined,
): ReadonlyArray<{ name: string }> | undefined {
  if (upstream === "emulator") return emulated ? [...emulated.values()] : undefined;
  return upstream === "platform" ? catalog : undefined;
}

export interface UnknownMethodAdvice {
  /** A method of the platform's catalog that the embedded emulator, the upstream, does not implement. */
  notImplemented: boolean;
  /** How many methods the emulator implements, when it is the upstream. */
  implementedCount?: number;
  /** Names the upstream answers, nearest first. */
  suggestions: string[];
}

export function unknownMethodAdvice(
  method: string,
  upstream: UpstreamKind | undefined,
  catalog: readonly CatalogMethod[] | undefined,
  emulated: ReadonlyMap<string, { name: string }> | undefined,
): UnknownMethodAdvice {
  const answered = answeredMethods(upstream, catalog, emulated);
  const suggestions = answered ? nearestMethodNames(answered, method) : [];
  if (upstream !== "emulator" || !emulated) return { notImplemented: false, suggestions };
  const catalogued = catalog !== undefined && findMethod(catalog, method) !== undefined;
  return { notImplemented: catalogued && !emulated.has(method), implementedCount: emulated.size, suggestions };
}
