"use client";

import useSWR from "swr";
import type { EmulatorRecordWire } from "@/lib/emulator-admin/universal/schemas";
import { fetchJson, type ConsoleRequestError } from "./console-fetch";

/** GET /api/emulator/records's answer: the workspace and its records, newest first. */
interface EmulatorRecordsAnswer {
  teamId: string | null;
  records: EmulatorRecordWire[];
}

/** How often the page reads the emulator's records again: a delivery's retries and outcome come in after it starts. */
const REFRESH_MS = 3000;

/** The embedded emulator's records of what it sent apps (events, interactions). */
export function useEmulatorRecords() {
  return useSWR<EmulatorRecordsAnswer, ConsoleRequestError>("/api/emulator/records", (url: string) => fetchJson<EmulatorRecordsAnswer>(url), {
    refreshInterval: REFRESH_MS,
  });
}
