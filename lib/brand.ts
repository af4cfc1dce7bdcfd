/**
 * `instanceof` that holds across Next.js's module graphs. The server's instrumentation and each route bundle
 * load their own copy of a module, so a class made in one (the store, opened by the background refresher
 * from instrumentation) is another object than the same class in a route: `instanceof` between them is
 * false, and a route would miss a VersionConflictError it retries on, or answer 500 for an AppError. A class
 * brands its instances with a registered symbol (one per class name, the same in every copy) and answers
 * `instanceof` by that brand.
 *
 *     static override [Symbol.hasInstance](value: unknown) { return hasBrand(value, "AppError"); }
 *     constructor(…) { super(…); brand(this, "AppError"); }
 *
 * A subclass brands with its own name too (and overrides the check), so an AppError is not a PlatformError.
 */
const brandOf = (name: string) => Symbol.for(`switchboard.class.${name}`);

export function brand(instance: object, name: string): void {
  Object.defineProperty(instance, brandOf(name), { value: true });
}

export function hasBrand(value: unknown, name: string): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brandOf(name)] === true;
}
