import "server-only";
import { installationIdFor, MAX_APP_NAME_CHARS } from "@/lib/installations/record";
import type { AppKey } from "@/lib/installations/universal/view";
import { maskToken } from "@/lib/platform";
import type { Store, StoreInstallation, StoreTimelineEntry, StoreToken } from "@/lib/store";
import type { EmulatorSeeder, SeedAnswer, SeededTokenAnswer } from "./emulator-seeder";

/**
 * Seeds an emulated platform and the store with many installations without an OAuth round trip (npm run
 * seed; the benches call it too): the emulator makes each workspace, its installation and its tokens
 * (POST /admin/installations/seed, a batch at a time), and the store takes the same installations as an
 * install would have saved them (ids, names, tokens sealed with the store's keys, one "installed" timeline
 * entry), a batch per transaction. The next batch is asked of the emulator while the last one is stored.
 */

export interface SeedOptions {
  store: Store;
  emulator: EmulatorSeeder;
  /** How many installations. */
  installations: number;
  /** The console's app they are of ("console": its default app, rotation on). */
  appKey?: AppKey;
  /** That app's client id (the emulator finds the app by it); default the emulator's first app. */
  clientId?: string;
  /** Workspace names: `<prefix> 00042`. Default "Acme". */
  namePrefix?: string;
  /** The number of the first (default 0): seeding again with `first` past the last adds more. */
  first?: number;
  /** Share (0..1) with rotating tokens, expiries staggered over the next 12 hours (default 0.5; needs an app with rotation on). */
  rotatingShare?: number;
  /** Share (0..1) that also hold the installer's user token (default 0.2). */
  userShare?: number;
  /** Installations per emulator request and per store transaction (default 2,000, at most 5,000). */
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface SeedResult {
  installations: number;
  rotating: number;
  withUserToken: number;
  ms: number;
}

function storeToken(token: SeededTokenAnswer): StoreToken {
  return {
    value: token.access_token,
    ...(token.refresh_token ? { refreshToken: token.refresh_token } : {}),
    ...(token.expires_at_ms !== undefined ? { expiresAt: token.expires_at_ms } : {}),
    scopes: token.scope ? token.scope.split(",") : [],
    issuedAt: token.issued_at_ms,
  };
}

/** The record an OAuth install of this grant would have saved, and its "installed" timeline entry. */
export function seededRecord(answer: SeedAnswer, seeded: SeedAnswer["installations"][number], appKey: AppKey) {
  const record: StoreInstallation = {
    id: installationIdFor(seeded.team.id, answer.app_id, appKey),
    appKey,
    appId: answer.app_id,
    appName: answer.app_name.slice(0, MAX_APP_NAME_CHARS),
    team: seeded.team,
    botUserId: seeded.bot_user_id,
    botId: seeded.bot_id,
    upstreamInstanceId: answer.instance_id,
    authedUserId: seeded.authed_user_id,
    installedBy: seeded.authed_user_id,
    bot: storeToken(seeded.bot),
    // The installer's own user token, by name (what an install with authed_user stores).
    ...(seeded.user ? { people: { [seeded.user.user_id]: storeToken(seeded.user) } } : {}),
    state: "active",
    installedAt: seeded.installed_at_ms,
    updatedAt: seeded.installed_at_ms,
  };
  const tokens = [seeded.bot.access_token, ...(seeded.user ? [seeded.user.access_token] : [])].map(maskToken);
  const timeline: StoreTimelineEntry[] = [
    { at: seeded.installed_at_ms, type: "installed", tokens, by: "Seed (npm run seed)", who: { id: seeded.authed_user_id } },
  ];
  return { record, timeline };
}

/**
 * A seed that stopped part way: everything before `resumeFrom` is stored; the emulator may hold installations
 * from `resumeFrom` up to (not including) `madeTo` that the store does not. Says which --first to resume from.
 */
function stopped(cause: unknown, resumeFrom: number, end: number, madeTo: number): Error {
  const why = cause instanceof Error ? cause.message : String(cause);
  const orphans = madeTo > resumeFrom ? ` The emulator holds installations ${resumeFrom} to ${madeTo - 1} that the store does not (they stay unlisted).` : "";
  return new Error(
    `Seeding stopped at installation ${resumeFrom}: ${why}. Those before it are stored.${orphans} ` +
      `Resume with --first ${resumeFrom} --installations ${end - resumeFrom}.`,
    { cause },
  );
}

export async function seedInstallations(options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const appKey = options.appKey ?? "console";
  const batchSize = Math.min(Math.max(1, options.batchSize ?? 2_000), 5_000);
  const first = options.first ?? 0;
  const total = options.installations;
  const digits = Math.max(5, String(first + total - 1).length);
  const ask = (from: number) =>
    options.emulator({
      ...(options.clientId ? { client_id: options.clientId } : {}),
      count: Math.min(batchSize, first + total - from),
      first: from,
      name_prefix: options.namePrefix ?? "Acme",
      digits,
      rotating_share: options.rotatingShare ?? 0.5,
      user_share: options.userShare ?? 0.2,
    });
  const result: SeedResult = { installations: 0, rotating: 0, withUserToken: 0, ms: 0 };
  let next = total > 0 ? ask(first) : undefined;
  for (let from = first; next;) {
    const batchFirst = from;
    let answer: SeedAnswer;
    try {
      answer = await next;
    } catch (error) {
      throw stopped(error, batchFirst, first + total, batchFirst);
    }
    from += answer.installations.length;
    // The emulator makes the next batch while this one is sealed and stored.
    next = from < first + total ? ask(from) : undefined;
    const rows = answer.installations.map((seeded) => seededRecord(answer, seeded, appKey));
    try {
      await options.store.installations.insertMany(rows);
    } catch (error) {
      // The emulator made this batch, and maybe the next, that the store does not have.
      const madeTo = (await next?.then((a) => from + a.installations.length).catch(() => from)) ?? from;
      throw stopped(error, batchFirst, first + total, madeTo);
    }
    result.installations += rows.length;
    result.rotating += answer.installations.filter((s) => s.bot.refresh_token).length;
    result.withUserToken += answer.installations.filter((s) => s.user).length;
    options.onProgress?.(result.installations, total);
  }
  result.ms = performance.now() - started;
  return result;
}
