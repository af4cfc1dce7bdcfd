/**
 * The app's backend as the token API suites play it: API keys created through the console, and clients that
 * ask GET /api/v1/installations/{team}/token?kind=bot for random workspaces as fast as answers come, with
 * Node's fetch (no browser headers), one key each.
 */
import { expectJson } from "../http";
import { consoleHeaders } from "./console-server";

/** A new API key (POST /api/api-keys, as an admin on the API keys page makes one); the key itself, shown once. */
export async function createApiKey(origin: string, name: string): Promise<string> {
  const created = await expectJson<{ key: string }>(
    await fetch(`${origin}/api/api-keys`, {
      method: "POST",
      headers: { ...consoleHeaders(""), origin, "content-type": "application/json" },
      body: JSON.stringify({ name }),
    }),
    "POST /api/api-keys",
  );
  return created.key;
}

export interface TokenApiAnswer {
  team: string;
  status: number;
  /** When the request left (performance.now()). */
  sentAt: number;
  /** From the request leaving to the answer's last byte. */
  ms: number;
  body: string;
}

/** One client per key, each asking for a random team's bot token, the next as soon as an answer is read, until `deadline` (performance.now()). */
export async function askTokensUntil(
  origin: string,
  keys: readonly string[],
  teams: readonly string[],
  deadline: number,
  onAnswer: (answer: TokenApiAnswer) => void,
): Promise<void> {
  await Promise.all(
    keys.map(async (key) => {
      while (performance.now() < deadline) {
        const team = teams[Math.floor(Math.random() * teams.length)]!;
        const sentAt = performance.now();
        const response = await fetch(`${origin}/api/v1/installations/${team}/token?kind=bot`, { headers: { authorization: `Bearer ${key}` } });
        const body = await response.text();
        onAnswer({ team, status: response.status, sentAt, ms: performance.now() - sentAt, body });
      }
    }),
  );
}

/** How many uses of the token API the console audited, over every key (GET /api/api-keys/{id}/uses, a page of 200 at a time). */
export async function countAuditedUses(origin: string): Promise<number> {
  const { apiKeys } = await expectJson<{ apiKeys: Array<{ id: string }> }>(
    await fetch(`${origin}/api/api-keys`, { headers: consoleHeaders("") }),
    "GET /api/api-keys",
  );
  let audited = 0;
  for (const { id } of apiKeys) {
    for (let before: number | undefined; ;) {
      const { uses } = await expectJson<{ uses: Array<{ seq: number }> }>(
        await fetch(`${origin}/api/api-keys/${encodeURIComponent(id)}/uses?limit=200${before ? `&before=${before}` : ""}`, { headers: consoleHeaders("") }),
        "GET /api/api-keys/{id}/uses",
      );
      audited += uses.length;
      if (uses.length < 200) break;
      before = Math.min(...uses.map((u) => u.seq));
    }
  }
  return audited;
}
