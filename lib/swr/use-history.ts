"use client";

import { useCallback } from "react";
import useSWR, { useSWRConfig } from "swr";
import useSWRMutation from "swr/mutation";
import { historyQuery, type HistoryFilters, type HistoryPageAnswer } from "@/lib/explorer/history";
import { fetchJson } from "./console-fetch";

/** Every key of the history's pages starts so: a new call or a clear revalidates them all. */
const HISTORY_KEY = "/api/history";

/** A page of this person's lasting history (GET /api/history), newest first. */
export function useHistoryPage(filters: HistoryFilters, options: { cursor?: string | null; limit?: number } = {}) {
  const query = historyQuery(filters, options);
  const { data, error, isLoading, mutate } = useSWR<HistoryPageAnswer>(`${HISTORY_KEY}?${query}`, (url: string) => fetchJson<HistoryPageAnswer>(url), {
    keepPreviousData: true,
    revalidateOnFocus: true,
  });
  return { data, error: error as Error | undefined, isLoading, mutate };
}

/** Revalidates every page of the history shown (after a call or a Fetch all the server recorded). */
export function useRefreshHistory() {
  const { mutate } = useSWRConfig();
  return useCallback(() => mutate((key) => typeof key === "string" && key.startsWith(`${HISTORY_KEY}?`)), [mutate]);
}

/** DELETE /api/history: clears this person's history; every page shown revalidates. */
export function useClearHistory() {
  const refresh = useRefreshHistory();
  return useSWRMutation<{ cleared: number }, Error, string>(`${HISTORY_KEY}#clear`, async () => {
    const answer = await fetchJson<{ cleared: number }>(HISTORY_KEY, { method: "DELETE" });
    await refresh();
    return answer;
  });
}
