import "server-only";
import { callEmulatorAdmin, type AdminTarget } from "./transport";
import { RecordsAnswerWire, type EmulatorRecordWire } from "./universal/schemas";

/**
 * GET /admin/records: the emulator's own record of what it sent one workspace's apps (event deliveries over
 * HTTP or Socket Mode, slash commands, clicks, submissions…), newest first, tokens and response_url tails
 * masked by the emulator. Without a team, its first workspace.
 */
export async function readEmulatorRecords(target: AdminTarget, teamId?: string): Promise<EmulatorRecordWire[]> {
  return (await callEmulatorAdmin(target, teamId ? `records?team_id=${encodeURIComponent(teamId)}` : "records", RecordsAnswerWire)).records;
}
