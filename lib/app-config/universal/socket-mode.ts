/**
 * What the settings page's Socket Mode panel reads and gets back (GET and POST
 * /api/app-config/apps/{appId}/socket-mode, …/app-tokens, …/connections/disconnect). Browser-safe.
 */

/** The scopes an app-level token may have, as the platform's Basic Information page offers them. */
export const APP_TOKEN_SCOPES = ["connections:write", "authorizations:read", "app_configurations:write"] as const;

/** Why a connection is told to go: the `reason` of the platform's `disconnect` message. */
export const DISCONNECT_REASONS = ["refresh_requested", "warning", "link_disabled"] as const;
export type DisconnectReason = (typeof DISCONNECT_REASONS)[number];

/** An app-level token, masked (`xapp-1-…abcd`): its value is shown only in the answer that generated it. */
export interface AppLevelTokenView {
  name: string;
  scopes: string[];
  masked: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface SocketConnectionView {
  id: string;
  openedAt: string;
  /** `disconnect` was sent; the app is to open another and close this one. */
  disconnectSent: boolean;
  envelopesSent: number;
  awaitingAck: number;
}

/**
 * An app's Socket Mode settings: through the emulator's admin surface, or, against the platform, only where
 * to find them there (the platform has no API for app-level tokens or its Socket Mode switch).
 */
export type SocketModeView =
  | { available: false; appId: string }
  | { available: true; appId: string; socketModeEnabled: boolean; tokens: AppLevelTokenView[]; connections: SocketConnectionView[] };

/** POST …/app-tokens: the new token in clear, this once, and the panel as it now is. */
export interface NewAppTokenAnswer {
  ok: true;
  name: string;
  scopes: string[];
  token: string;
  socketMode: SocketModeView;
}
