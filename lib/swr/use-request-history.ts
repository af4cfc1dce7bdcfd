"use client";

import { useCallback } from "react";
import useSWR from "swr";
import { addHistoryEntry, HISTORY_KEY, parseHistory, type HistoryEntry } from "@/lib/explorer/history";

/** This tab's request history, kept in sessionStorage (no secrets in it: see lib/explorer/history). */
export function useRequestHistory() {
  const { data, mutate } = useSWR<HistoryEntry[]>(HISTORY_KEY, () => parseHistory(window.sessionStorage.getItem(HISTORY_KEY)), {
    fallbackData: [],
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
  });

  const add = useCallback(
    (entry: HistoryEntry) =>
      mutate(
        (current) => {
          const next = addHistoryEntry(current ?? [], entry);
          window.sessionStorage.setItem(HISTORY_KEY, JSON.stringify(next));
          return next;
        },
        { revalidate: false },
      ),
    [mutate],
  );

  const clear = useCallback(() => {
    window.sessionStorage.removeItem(HISTORY_KEY);
    return mutate([], { revalidate: false });
  }, [mutate]);

  return { entries: data ?? [], add, clear };
}
