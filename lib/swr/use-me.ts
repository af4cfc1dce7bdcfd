"use client";

import useSWR from "swr";
import type { MeAnswer } from "@/lib/signin/universal/person";
import { ConsoleRequestError, fetchJson } from "./console-fetch";

/** Nobody is signed in: what a 401 sign_in_required says (a sign-in that ended while the page was open). */
const SIGNED_OUT: MeAnswer = { authMode: "oidc", person: null, admin: false };

/** Who is signed in in this browser (GET /api/me), for the header. */
export function useMe() {
  return useSWR<MeAnswer, ConsoleRequestError>("/api/me", (url: string) =>
    fetchJson<MeAnswer>(url).catch((error: unknown) => {
      if (error instanceof ConsoleRequestError && error.code === "sign_in_required") return SIGNED_OUT;
      throw error;
    }),
  );
}
