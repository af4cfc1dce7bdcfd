/**
 * What the events module records (spec 6, docs/spec/web-api.md): the verification of an app's request URL
 * and each event delivery. A leaf module, so that the shared types (an app holds its verification) and the
 * emulator's state (which holds each workspace's event log) name them without importing the events module.
 */

export type VerificationFailure = "http_timeout" | "connection_failed" | "http_error" | "challenge_mismatch";

export interface RequestUrlVerification {
  url: string;
  state: "pending" | "verified" | "failed";
  /** Wall-clock epoch ms the challenge was sent. */
  at: number;
  durationMs?: number;
  /** The app's HTTP status, when it answered. */
  status?: number;
  failure?: VerificationFailure;
  /** Settles when the attempt has an outcome. */
  done: Promise<void>;
}

export type RetryReason = "http_timeout" | "http_error" | "connection_failed";

/** Why a Socket Mode attempt failed: no connection opened in time, no ack in time, the connection closed first. */
export type SocketFailure = "no_connection" | "timeout" | "connection_closed";

export interface DeliveryAttempt {
  /** 0 for the first attempt; X-Slack-Retry-Num of a retry. */
  retryNum: number;
  /** Wall-clock epoch ms. */
  at: number;
  durationMs: number;
  /** The app's HTTP status, when it answered. */
  status?: number;
  /** Why it counts as failed. */
  failure?: RetryReason | SocketFailure;
  /** Socket Mode: the envelope sent and the connection it went on. */
  envelopeId?: string;
  connectionId?: string;
}

export interface EventDelivery {
  eventId: string;
  eventType: string;
  appId: string;
  installationId: string;
  teamId: string;
  channel: string;
  /** The request URL: an app's own configuration, shown only on the development admin surface. "socket_mode" over Socket Mode. */
  url: string;
  /** How it travels: the app's choice (settings.socket_mode_enabled). Absent in deliveries from before Socket Mode: http. */
  via?: "http" | "socket";
  state: "pending" | "delivered" | "failed";
  /**
   * Why nothing was sent: the request URL's verification, under way when the event happened, failed; the
   * app's event subscriptions are disabled; the app is past 30,000 events from this workspace in the hour.
   */
  notSent?: "request_url_not_verified" | "app_disabled" | "app_rate_limited";
  attempts: DeliveryAttempt[];
  payload: Record<string, unknown>;
  /** Set on an interaction (interactivity/), recorded in the same log: who acted, the app's answer, what came of it. */
  interaction?: InteractionOutcome;
}

/** What an interaction (a slash command, a click, a submission, …) led to. */
export interface InteractionOutcome {
  /** The member who interacted. */
  user: string;
  /** The app's immediate answer (the HTTP response's body, or the Socket Mode ack's payload), if any. */
  answer?: unknown;
  /** `ok`, what the answer did (`ephemeral`, `in_channel`, `errors`, `update`, `push`, `clear`, `options`), or why it failed. */
  outcome: string;
  /** What the emulator made of the answer, for the caller (the message shown, the errors kept, the options). */
  result?: Record<string, unknown>;
}

/** One workspace's events: the deliveries the admin state shows, those still under way, the last event id's number. */
export interface EventLog {
  /** Newest last; the most recent few hundred. */
  deliveries: EventDelivery[];
  /** Deliveries still being attempted (retries included). */
  inFlight: Set<Promise<void>>;
  seq: number;
}

/** The platform turned an app's event subscriptions off: when (the emulator's clock, epoch ms) and what it judged. */
export interface EventsDisabled {
  at: number;
  reason: "delivery_failures";
  /** Deliveries finished in the 60 minutes judged, and how many of them succeeded. */
  attempted: number;
  delivered: number;
}
