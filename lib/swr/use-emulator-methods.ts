"use client";

import useSWRImmutable from "swr/immutable";
import { fetchJson } from "./console-fetch";

/** One method as the embedded emulator describes itself (its admin surface's GET /admin/methods). */
export interface EmulatedMethod {
  name: string;
  tier: 1 | 2 | 3 | 4 | "special";
  paginated: boolean;
  pages?: string;
  json: boolean;
  scopes: { bot: string[] | null; user: string[] | null };
}

/**
 * The methods the embedded emulator implements, asked of the emulator itself (the console keeps no list of
 * them) through the console's own route: the emulator's admin surface answers only its token once the
 * console is exposed. Only while it is the upstream: against the real platform there is nothing to ask.
 */
export function useEmulatorMethods(upstreamKind: "emulator" | "platform" | undefined) {
  return useSWRImmutable<ReadonlyMap<string, EmulatedMethod>>(upstreamKind === "emulator" ? "/api/emulator/methods" : null, async (url: string) => {
    const body = await fetchJson<{ methods: EmulatedMethod[] }>(url);
    return new Map(body.methods.map((m) => [m.name, m]));
  });
}
