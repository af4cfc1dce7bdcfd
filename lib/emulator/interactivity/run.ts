/**
 * One interaction from start to record: sent to the app (transport.ts), recorded with the app's answer and
 * timing (records.ts), then settled with what the emulator made of the answer, which is what the admin
 * caller (the member's side) is answered.
 */
import { touch } from "../core/change-tracking";
import { jsonResponse } from "../core/errors";
import type { App, Installation, RequestContext } from "../types";
import { describeInteraction, record, type InteractionRecord } from "./records";
import { exchange, type Envelope, type Exchange } from "./transport";

export interface Sent {
  app: App;
  installation: Installation;
  /** The interaction's type as recorded: `slash_commands`, or the interactive payload's `type`. */
  type: string;
  user: string;
  channel?: string;
  /** Where it goes over HTTP. */
  url: string | undefined;
  envelope: Envelope;
  acceptsResponse: boolean;
}

export async function interact(ctx: RequestContext, sent: Sent): Promise<{ exchanged: Exchange; entry: InteractionRecord }> {
  const exchanged = await exchange(ctx, sent.app, { url: sent.url, envelope: sent.envelope, acceptsResponse: sent.acceptsResponse });
  const entry = record(ctx.state, sent.installation, { type: sent.type, channel: sent.channel, user: sent.user, payload: sent.envelope.payload }, exchanged);
  return { exchanged, entry };
}

/** Says what came of the answer (and what the emulator made of it), in the record. */
export function settle(entry: InteractionRecord, outcome: string, result?: Record<string, unknown>): void {
  entry.interaction.outcome = outcome;
  if (result) entry.interaction.result = structuredClone(result);
  touch(entry);
}

/** The admin caller's answer: the record, and anything the call adds (a trigger id, a response_url). */
export function answerCaller(entry: InteractionRecord, extra: Record<string, unknown> = {}): Response {
  return jsonResponse({ ok: true, ...describeInteraction(entry), ...extra });
}

/** An answer that is an object, or nothing. */
export function answerObject(answer: unknown): Record<string, unknown> | undefined {
  return typeof answer === "object" && answer !== null && !Array.isArray(answer) ? (answer as Record<string, unknown>) : undefined;
}
