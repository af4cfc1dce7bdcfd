/**
 * One instance per server process. Next.js loads a module once per route bundle (and again on each dev
 * reload), so a module-level `let` would give every route its own copy: the instance lives on globalThis,
 * under a registered symbol, instead.
 */
const keys = new Map<string, symbol>();
// The symbol is looked up once per name: the token API asks for several singletons on each answer, and building
// the name and finding it in the symbol registry each time was about 2 µs of its warm answer (issue 43).
function key(name: string): symbol {
  let at = keys.get(name);
  if (at === undefined) keys.set(name, (at = Symbol.for(`switchboard.${name}`)));
  return at;
}

/** The process's instance called `name`, made by `create` the first time it is asked for. */
export function processSingleton<T>(name: string, create: () => T): T {
  const store = globalThis as Record<symbol, unknown>;
  const at = key(name);
  const found = store[at];
  if (found !== undefined || at in store) return found as T;
  return (store[at] = create()) as T;
}

/** The process's instance called `name`, if one was made. */
export function findProcessSingleton<T>(name: string): T | undefined {
  return (globalThis as Record<symbol, unknown>)[key(name)] as T | undefined;
}
