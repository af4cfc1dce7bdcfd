import "server-only";
import { canSee } from "@/lib/installations/universal/rights";
import type { Viewer } from "@/lib/viewer";
import { readEmulatorRecords } from "@/lib/emulator-admin/records";
import type { AdminTarget } from "@/lib/emulator-admin/transport";
import type { EmulatorRecordWire } from "@/lib/emulator-admin/universal/schemas";
import { AppError } from "@/lib/http/app-error";

/** How many of the emulator's records the events page shows: the newest (the emulator keeps a few hundred). */
const SHOWN_RECORDS = 50;

interface EmulatorRecords {
  /** The workspace whose records these are; null when there is none to show. */
  teamId: string | null;
  /** Newest first, at most SHOWN_RECORDS. */
  records: EmulatorRecordWire[];
}

/**
 * The emulator's own record of what it sent apps in one workspace (events over HTTP or Socket
 * Mode, slash commands, clicks, submissions), as the events page shows it beside what the console itself
 * received. A member reads their own workspace's; an admin (or the operator) the one asked for, else the
 * first. Tokens and response_url tails come masked from the emulator (`emulator`: the embedded one, or a
 * standalone one the console reaches through PLATFORM_BASE_URL).
 */
export async function readRecordsFor(viewer: Viewer, emulator: AdminTarget, teamId?: string): Promise<EmulatorRecords> {
  const team = teamId ?? (viewer.kind === "member" ? viewer.teamId : undefined);
  if (team !== undefined && !canSee(viewer, { team: { id: team } })) return { teamId: null, records: [] };
  const records = await readEmulatorRecords(emulator, team).catch((error: unknown) => {
    // A workspace the emulator does not have (it was reset): nothing to show, as for an empty one.
    if (error instanceof AppError && error.relayed && error.code === "team_not_found") return null;
    throw error;
  });
  if (!records) return { teamId: null, records: [] };
  return { teamId: team ?? null, records: records.slice(0, SHOWN_RECORDS) };
}
