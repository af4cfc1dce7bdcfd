import "server-only";
import type { UpstreamAbout } from "@/lib/platform";
import type { InstallationRecord } from "./record";
import { UPSTREAM_REPLACED } from "./universal/lifecycle";
import { prependEntry } from "./universal/timeline";

/** What the upstream says of itself (describeUpstream): from the last read, or asked now (`fresh`). */
export type ReadUpstream = (fresh?: boolean) => Promise<UpstreamAbout>;

const instanceOf = (about: UpstreamAbout) => (about.emulator ? about.instanceId : undefined);

/**
 * Whether the emulator answering now is the one an installation was made on. An emulator names its state
 * (`instance_id` at /.well-known/emulator: new after a reset, or in another emulator); the record keeps the
 * one it was installed on. Another one never issued the record's tokens: that is a fact, recorded once (the
 * installation needs reinstalling, with why, in its timeline), so no token of it is handed out or refreshed
 * as if it lived. A record made before the console kept the instance takes the current one (nothing proves
 * otherwise). The platform names no instance: nothing changes. A difference is confirmed by asking again
 * (the last read may predate a reset this installation was made after).
 */
export async function withUpstreamInstance(record: InstallationRecord, read: ReadUpstream, by: string, nowMs: number): Promise<InstallationRecord> {
  let current = instanceOf(await read());
  if (current && record.upstreamInstanceId && current !== record.upstreamInstanceId) current = instanceOf(await read(true));
  if (!current || record.upstreamInstanceId === current) return record;
  if (!record.upstreamInstanceId) return { ...record, upstreamInstanceId: current };
  if (record.state !== "active") return record;
  return {
    ...record,
    state: "needs_reinstall",
    problem: UPSTREAM_REPLACED,
    updatedAt: nowMs,
    timeline: prependEntry(record.timeline, { at: nowMs, type: "upstream_replaced", was: record.upstreamInstanceId, now: current, by }),
  };
}

/** The record as made on the emulator answering now (an install, a reinstall): what later reads compare with. */
export async function onCurrentUpstream(record: InstallationRecord, read: ReadUpstream): Promise<InstallationRecord> {
  const current = instanceOf(await read(true));
  if (current === record.upstreamInstanceId) return record;
  const { upstreamInstanceId: _previous, ...rest } = record;
  return current ? { ...rest, upstreamInstanceId: current } : rest;
}
