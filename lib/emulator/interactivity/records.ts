/**
 * Every interaction is recorded in its workspace's event log (events/deliveries.ts) beside the event
 * deliveries: the payload sent, the app's answer, how long it took and what came of it. GET
 * {base}/admin/interactions lists them (the console's events page reads them there).
 */
import { randomBytes } from "node:crypto";
import { describeDeliveries, recordInteraction } from "../events/deliveries";
import type { EventDelivery, InteractionOutcome } from "../events/types";
import type { EmulatorState, Installation } from "../types";
import type { Exchange } from "./transport";

/** An interaction's id in the log (`In0…`): interactions have no id of the platform's. */
function interactionId(): string {
  return `In0${randomBytes(6).toString("hex").toUpperCase()}`;
}

export interface InteractionRecord extends EventDelivery {
  interaction: InteractionOutcome;
}

/** Records what an exchange with the app gave; `outcome` is filled in once the answer has been applied. */
export function record(
  state: EmulatorState,
  installation: Installation,
  sent: { type: string; channel?: string; user: string; payload: Record<string, unknown> },
  exchanged: Exchange,
): InteractionRecord {
  const entry: InteractionRecord = {
    eventId: interactionId(),
    eventType: sent.type,
    appId: installation.appId,
    installationId: installation.id,
    teamId: installation.teamId,
    channel: sent.channel ?? "",
    url: exchanged.url,
    via: exchanged.via,
    state: exchanged.failure ? "failed" : "delivered",
    attempts: [
      {
        retryNum: 0,
        at: exchanged.at,
        durationMs: exchanged.durationMs,
        ...(exchanged.status !== undefined ? { status: exchanged.status } : {}),
        ...(exchanged.envelopeId ? { envelopeId: exchanged.envelopeId, connectionId: exchanged.connectionId } : {}),
      },
    ],
    // A copy: the record is what was sent, whatever becomes of the message or view it shows.
    payload: structuredClone(sent.payload),
    interaction: {
      user: sent.user,
      ...(exchanged.answer !== undefined ? { answer: exchanged.answer } : {}),
      outcome: exchanged.failure ?? "ok",
    },
  };
  recordInteraction(state, entry);
  return entry;
}

/** What the admin surface shows of a record, and answers the member who interacted. */
export function describeInteraction(entry: EventDelivery) {
  const attempt = entry.attempts[0];
  // The deprecated verification token stays out of what the admin surface shows, as in event deliveries.
  const { token: _token, ...payload } = entry.payload;
  return {
    interaction_id: entry.eventId,
    type: entry.eventType,
    app_id: entry.appId,
    installation_id: entry.installationId,
    team_id: entry.teamId,
    user: entry.interaction?.user ?? null,
    channel: entry.channel || null,
    via: entry.via ?? "http",
    url: entry.url,
    at: attempt ? new Date(attempt.at).toISOString() : null,
    duration_ms: attempt?.durationMs ?? null,
    status: attempt?.status ?? null,
    envelope_id: attempt?.envelopeId ?? null,
    outcome: entry.interaction?.outcome ?? null,
    answer: entry.interaction?.answer ?? null,
    result: entry.interaction?.result ?? null,
    payload,
  };
}

/** A response_url with its secret part cut short, as the admin surface shows webhook URLs: it can post for 30 minutes. */
function maskUrl(url: unknown): unknown {
  return typeof url === "string" ? url.replace(/\/([^/]{4})[^/]*$/, "/$1…") : url;
}

/**
 * A workspace's recent interactions, newest first. Listed, a payload's response_url is masked; only the
 * member's own call (the act's answer) shows it whole.
 */
export function describeInteractions(state: EmulatorState, teamId: string) {
  const entries = (state.eventLogs.get(teamId)?.deliveries ?? []).filter((d) => d.interaction !== undefined);
  return [...entries].reverse().map((entry) => {
    const described = describeInteraction(entry);
    return "response_url" in described.payload
      ? { ...described, payload: { ...described.payload, response_url: maskUrl(described.payload.response_url) } }
      : described;
  });
}

/**
 * A workspace's event deliveries and interactions together, newest first, each with its `kind`: what the
 * console's events page reads (GET {base}/admin/records).
 */
export function describeRecords(state: EmulatorState, teamId: string) {
  const order = new Map((state.eventLogs.get(teamId)?.deliveries ?? []).map((d, i) => [d.eventId, i]));
  const events = describeDeliveries(state, teamId).map((d) => ({ kind: "event" as const, id: d.event_id, ...d }));
  const interactions = describeInteractions(state, teamId).map((i) => ({ kind: "interaction" as const, id: i.interaction_id, ...i }));
  return [...events, ...interactions].sort((a, b) => (order.get(b.id) ?? 0) - (order.get(a.id) ?? 0));
}
