/**
 * The messages of Socket Mode as the emulator speaks them (hub.ts sends and reads them), listed for
 * docs/emulator.md's conformance table (`npm run conformance`): who sends each, and its fields.
 */
import { INTERACTION_TYPES } from "../interactivity/catalog";
import { DISCONNECT_REASONS } from "./hub";

export interface SocketModeMessage {
  type: string;
  direction: "to the app" | "from the app";
  fields: string;
  /** Sent by the emulator today (an envelope type to come is listed, not sent). */
  sent: boolean;
}

const ENVELOPE_FIELDS = "`envelope_id`, `payload`, `accepts_response_payload`, `retry_attempt`, `retry_reason`";

export const SOCKET_MODE_MESSAGES: readonly SocketModeMessage[] = [
  { type: "hello", direction: "to the app", fields: "`num_connections`, `connection_info.app_id`, `debug_info`", sent: true },
  {
    type: "events_api",
    direction: "to the app",
    fields: `${ENVELOPE_FIELDS}; \`payload\` is the \`event_callback\` (or \`app_rate_limited\`) body`,
    sent: true,
  },
  ...(["slash_commands", "interactive"] as const).map((type) => ({
    type,
    direction: "to the app" as const,
    fields: `${ENVELOPE_FIELDS}; \`payload\` is what the Interactivity Request URL would get`,
    sent: INTERACTION_TYPES.some((interaction) => interaction.envelope === type),
  })),
  { type: "disconnect", direction: "to the app", fields: `\`reason\`: ${DISCONNECT_REASONS.map((r) => `\`${r}\``).join(", ")}; \`debug_info\``, sent: true },
  { type: "(ack)", direction: "from the app", fields: "`envelope_id`, optional `payload`", sent: true },
  {
    type: "(ping / pong)",
    direction: "to the app",
    fields: "WebSocket ping frames every 10 s; a connection that answered none of the last is ended",
    sent: true,
  },
];
