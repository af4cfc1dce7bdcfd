"use client";

import useSWRMutation from "swr/mutation";
import type { ClockMove, ClockMoveAnswer } from "@/lib/platform-clock/move-platform-clock";
import type { ConsoleSession } from "@/lib/session/console-session";
import { fetchJson, jsonBody, type ConsoleRequestError } from "./fetch-json";

/**
 * Moves the emulator's clock (POST /api/platform-clock). The session it answers with replaces the cached
 * one at once: its platform time moves every countdown, with no other call.
 */
export function usePlatformClockMove() {
  return useSWRMutation<ClockMoveAnswer, ConsoleRequestError, string, ClockMove, ConsoleSession | undefined>(
    "/api/session",
    (_key, { arg }) => fetchJson<ClockMoveAnswer>("/api/platform-clock", jsonBody(arg)),
    { populateCache: (answer) => answer.session, revalidate: false },
  );
}
