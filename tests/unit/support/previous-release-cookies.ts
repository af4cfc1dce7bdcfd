/**
 * A FIXTURE MAKER: installation cookies exactly as the previous release (b414481, before the store) sealed
 * them, so the tests of the import into the store (tests/unit/installations/legacy-cookies.slow.test.ts) read
 * what an upgraded console really finds in browsers. Copied from that release's
 * lib/session/installation-store.ts (pack: the record's JSON deflated, {v: 2, z}) and its sealing
 * (iron-session's sealData, passwords by id, the 30-day time to live of an installation cookie), and its
 * record's shape (lib/session/installation-record.ts: tokens without `issuedAt`). Not used by the console.
 */
import { deflateRawSync } from "node:zlib";
import { sealData } from "iron-session";

export const PREVIOUS_INSTALLATION_COOKIE_PREFIX = "sb_inst_";
const PREVIOUS_INSTALLATION_MAX_AGE_S = 30 * 24 * 3600;
const PACKED_VERSION = 2;

/** A token as the previous release kept it. */
export interface PreviousStoredToken {
  value: string;
  refreshToken?: string;
  expiresAt?: number;
  scopes: string[];
  revoked?: boolean;
}

/** An installation as the previous release sealed it in its cookie. */
export interface PreviousInstallationRecord {
  id: string;
  appKey: string;
  appId?: string;
  team: { id: string; name: string };
  enterprise?: { id: string; name: string };
  botUserId?: string;
  authedUserId?: string;
  bot?: PreviousStoredToken;
  user?: PreviousStoredToken;
  incomingWebhook?: { url: string; channel: string; channelId: string; configurationUrl?: string };
  state: "active" | "needs_reinstall";
  problem?: string;
  appName?: string;
  uninstalledAt?: number;
  timeline?: Array<Record<string, unknown> & { at: number; type: string }>;
  installedAt: number;
  updatedAt: number;
}

function pack(installation: PreviousInstallationRecord) {
  return { v: PACKED_VERSION, z: deflateRawSync(JSON.stringify(installation), { level: 9 }).toString("base64url") };
}

/**
 * The cookie (name and value as the browser sends it back) the previous release set for `installation`.
 * `packed: false` seals the plain JSON, as releases before the packing did.
 */
export async function previousReleaseCookie(
  installation: PreviousInstallationRecord,
  password: string,
  options: { packed?: boolean; secure?: boolean } = {},
): Promise<{ name: string; value: string }> {
  const value = options.packed === false ? installation : pack(installation);
  const seal = await sealData(value as unknown as Record<string, unknown>, { password: { "1": password }, ttl: PREVIOUS_INSTALLATION_MAX_AGE_S });
  const name = `${options.secure ? "__Host-" : ""}${PREVIOUS_INSTALLATION_COOKIE_PREFIX}${installation.id}`;
  return { name, value: encodeURIComponent(seal) };
}
