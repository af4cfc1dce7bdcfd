"use client";

import { useContext } from "react";
import useSWRMutation from "swr/mutation";
import type { ClockMove, ClockMoveAnswer } from "@/lib/platform-clock/move-platform-clock";
import type { ConsoleSession } from "@/lib/session/console-session";
import { fetchJson, jsonBody, type ConsoleRequestError } from "./console-fetch";
import { SessionKeyContext } from "./use-session";

/**
 * Moves the emulator's clock (POST /api/platform-clock). The shown page of the session takes the moved
 * platform time at once, so every countdown moves with no other call; the page itself is read again (the
 * answer's session holds every installation, not the page's search and filter).
 */
export function usePlatformClockMove() {
  return useSWRMutation<ClockMoveAnswer, ConsoleRequestError, string, ClockMove, ConsoleSession | undefined>(
    useContext(SessionKeyContext),
    (_key, { arg }) => fetchJson<ClockMoveAnswer>("/api/platform-clock", jsonBody(arg)),
    {
      populateCache: (answer, current) => {
        if (!current) return current;
        const moved = new Map(answer.session.installations.map((i) => [i.id, i]));
        return {
          ...current,
          serverTime: answer.session.serverTime,
          platformClock: answer.session.platformClock,
          installations: current.installations.map((i) => moved.get(i.id) ?? i),
        };
      },
      revalidate: true,
    },
  );
}
