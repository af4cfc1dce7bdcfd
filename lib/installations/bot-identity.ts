import "server-only";
import { callMethod } from "@/lib/platform";
import type { RotationRuntime } from "@/lib/installations/rotation/runtime";
import type { InstallationRecord } from "./record";

const BOT_ID = /^B[A-Z0-9]{1,31}$/;

/**
 * The record with its bot's id, asked of auth.test with its bot token when it does not hold it yet (at
 * install; for a record made before the console kept it, on the token API's first answer). The grant names
 * the bot user (bot_user_id), not the bot: a Bolt app's ignoreSelf needs both. An answer that says nothing
 * (a dead token, a timeout) leaves the record as it is: the next use asks again.
 */
export async function withBotId(
  record: InstallationRecord,
  runtime: Pick<RotationRuntime, "baseUrl" | "timeoutMs" | "transport">,
): Promise<InstallationRecord> {
  if (record.botId || !record.bot || record.bot.revoked || record.state !== "active") return record;
  const answer = await callMethod({
    baseUrl: runtime.baseUrl,
    token: record.bot.value,
    method: "auth.test",
    timeoutMs: runtime.timeoutMs,
    ...(runtime.transport ? { transport: runtime.transport } : {}),
  }).catch(() => null);
  const body = answer?.ok && typeof answer.body === "object" && answer.body !== null ? (answer.body as Record<string, unknown>) : {};
  const botId = typeof body.bot_id === "string" && BOT_ID.test(body.bot_id) ? body.bot_id : undefined;
  return botId ? { ...record, botId } : record;
}
