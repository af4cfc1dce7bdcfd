import "server-only";
import { z } from "zod";

/**
 * How the seed asks an emulator for a batch of installations (`POST {base}/admin/installations/seed`): over
 * HTTP (a standalone emulator, or a running console's at `{origin}/emulator`), or a function call into an
 * emulator of this process (the console's embedded one, opened on its data directory while the console is
 * stopped). Either way the answer is checked here.
 */

const SeededTokenWire = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_at_ms: z.number().optional(),
  issued_at_ms: z.number(),
  scope: z.string(),
});

const SeedAnswerWire = z.object({
  ok: z.literal(true),
  instance_id: z.string(),
  app_id: z.string(),
  app_name: z.string(),
  installations: z.array(
    z.object({
      installation_id: z.string(),
      team: z.object({ id: z.string(), name: z.string() }),
      bot_user_id: z.string(),
      bot_id: z.string(),
      authed_user_id: z.string(),
      installed_at_ms: z.number(),
      bot: SeededTokenWire,
      user: SeededTokenWire.extend({ user_id: z.string() }).optional(),
    }),
  ),
});

export type SeedAnswer = z.infer<typeof SeedAnswerWire>;
export type SeededTokenAnswer = z.infer<typeof SeededTokenWire>;

/** What one batch asks (the admin route's body). */
export interface SeedBatchRequest {
  client_id?: string;
  app_id?: string;
  count: number;
  first: number;
  name_prefix: string;
  digits: number;
  rotating_share: number;
  user_share: number;
}

export type EmulatorSeeder = (request: SeedBatchRequest) => Promise<SeedAnswer>;

async function parse(response: Response): Promise<SeedAnswer> {
  const text = await response.text();
  if (!response.ok) throw new Error(`The emulator refused the seed (HTTP ${response.status}): ${text.slice(0, 500)}`);
  const parsed = SeedAnswerWire.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`The emulator's seed answer is not what was expected: ${parsed.error.message.slice(0, 500)}`);
  return parsed.data;
}

/** An emulator over HTTP at `baseUrl` (its Web API's base: `http://127.0.0.1:4000`, or `{console}/emulator`). */
export function emulatorOverHttp(baseUrl: string, adminToken?: string): EmulatorSeeder {
  const base = baseUrl.replace(/\/+$/, "");
  return async (request) => {
    const headers: Record<string, string> = { "content-type": "application/json", origin: new URL(base).origin };
    if (adminToken) headers.authorization = `Bearer ${adminToken}`;
    return parse(await fetch(`${base}/admin/installations/seed`, { method: "POST", headers, body: JSON.stringify(request) }));
  };
}

/** An emulator of this process: `fetch` is its own (createEmulator's), `baseUrl` where it answers, `adminToken` its admin credential. */
export function emulatorInProcess(emulator: { fetch(request: Request): Promise<Response> }, baseUrl: string, adminToken: string): EmulatorSeeder {
  return async (request) =>
    parse(
      await emulator.fetch(
        new Request(`${baseUrl.replace(/\/+$/, "")}/admin/installations/seed`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${adminToken}` },
          body: JSON.stringify(request),
        }),
      ),
    );
}
