/**
 * Parameter names that carry credentials. The console sends the session's token itself (as a Bearer
 * header) and never relays these from a request: a `token` in a body would override the session's own,
 * and a client secret or refresh token has no business passing through the explorer or its history.
 */
const CREDENTIAL_KEYS = new Set(["token", "client_secret", "refresh_token", "code", "client_id"]);

export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEYS.has(key.trim().toLowerCase());
}

/** A method's parameters as a request gave them, without `ownKeys` (the console's) and without credentials. */
export function methodParams(entries: Iterable<[string, string]>, ownKeys: ReadonlySet<string> = new Set()): Record<string, string> {
  // Own properties whatever the name: an assignment would take `__proto__` for the object's prototype and lose it.
  return Object.fromEntries([...entries].filter(([key]) => !ownKeys.has(key) && !isCredentialKey(key)));
}
