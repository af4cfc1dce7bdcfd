/**
 * One instance per server process. Next.js loads a module once per route bundle (and again on each dev
 * reload), so a module-level `let` would give every route its own copy: the instance lives on globalThis,
 * under a registered symbol, instead.
 */
const key = (name: string) => Symbol.for(`switchboard.${name}`);

/** The process's instance called `name`, made by `create` the first time it is asked for. */
export function processSingleton<T>(name: string, create: () => T): T {
  const store = globalThis as Record<symbol, unknown>;
  const at = key(name);
  if (!(at in store)) store[at] = create();
  return store[at] as T;
}

/** The process's instance called `name`, if one was made. */
export function findProcessSingleton<T>(name: string): T | undefined {
  return (globalThis as Record<symbol, unknown>)[key(name)] as T | undefined;
}
