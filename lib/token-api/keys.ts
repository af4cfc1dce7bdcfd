import "server-only";
import { randomBytes } from "node:crypto";
import type { Viewer } from "@/lib/viewer";
import { requireAdmin } from "@/lib/access/viewer";
import { personOf } from "@/lib/installations/who-did-it";
import { AppError } from "@/lib/http/app-error";
import { getStore } from "@/lib/store";
import { secretHash } from "@/lib/store/sealing";
import type { StoreApiKey, StoreTokenApiUse } from "@/lib/store";
import { flushAudit } from "./audit";

/**
 * API keys of the token API: an admin creates one for an app (optionally for some workspaces only), sees it
 * once, and may revoke it; the store keeps its SHA-256 hash and its first characters. A key is 256 random
 * bits after `sbk_`, so a fast hash is as good as a slow one: there is nothing to guess.
 */

export const API_KEY_PREFIX = "sbk_";
const KEY = /^sbk_[A-Za-z0-9_-]{43}$/;

/** What the browser sees of a key: never the key, after the answer that created it. */
export type ApiKeyView = StoreApiKey;

export interface NewApiKey {
  name: string;
  appKey: "console" | "legacy";
  appId?: string;
  teamIds: string[] | null;
}

/** Whether a string looks like one of our keys at all (anything else is refused before the store is asked). */
export function looksLikeApiKey(value: string): boolean {
  return KEY.test(value);
}

export function apiKeyHash(key: string): string {
  return secretHash(key);
}

/** Creates a key (admins only); answers it in clear this once, with its view. */
export async function createApiKey(viewer: Viewer, input: NewApiKey): Promise<{ key: string; apiKey: ApiKeyView }> {
  requireAdmin(viewer, "create API keys");
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const person = personOf(viewer);
  const apiKey = await (
    await getStore()
  ).apiKeys.create({
    id: `key_${randomBytes(9).toString("base64url")}`,
    name: input.name,
    keyHash: apiKeyHash(key),
    prefix: key.slice(0, API_KEY_PREFIX.length + 4),
    appKey: input.appKey,
    ...(input.appId ? { appId: input.appId } : {}),
    teamIds: input.teamIds,
    createdAt: Date.now(),
    // The person by name where it is known, with the id that tells two of the same name apart.
    ...(person ? { createdBy: person.name ? `${person.name} (${person.id})` : person.id } : {}),
  });
  return { key, apiKey };
}

export async function listApiKeys(viewer: Viewer): Promise<ApiKeyView[]> {
  requireAdmin(viewer, "see API keys");
  await flushAudit();
  return (await getStore()).apiKeys.list();
}

export async function revokeApiKey(viewer: Viewer, id: string): Promise<ApiKeyView> {
  requireAdmin(viewer, "revoke API keys");
  // The store forgets the key on every instance (here at once, elsewhere as its NOTIFY arrives).
  const revoked = await (await getStore()).apiKeys.revoke(id, Date.now());
  if (!revoked) throw new AppError("unknown_api_key");
  return revoked;
}

/** A key's audit, newest first. */
export async function listApiKeyUses(
  viewer: Viewer,
  id: string,
  options: { limit?: number; before?: number } = {},
): Promise<Array<StoreTokenApiUse & { seq: number }>> {
  requireAdmin(viewer, "see how API keys are used");
  // What this process still holds is written first: the audit shows every answer given.
  await flushAudit();
  return (await getStore()).apiKeys.listUses(id, options);
}
