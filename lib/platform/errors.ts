import { brand, hasBrand } from "@/lib/brand";
import { AppError } from "@/lib/http/app-error";
import type { PlatformCallResult } from "./call-method";

/**
 * The platform's error codes the console relays with words of its own: what each means for the person at the
 * console, and the status the console answers with. Any other code is relayed too, with a status from the
 * platform's HTTP status. These are the platform's codes, not the console's (lib/http/error-codes.ts).
 */
export const PLATFORM_ERRORS = {
  invalid_code: { status: 400, message: "The authorization code is not valid: it was already used or has expired. Start the install again." },
  bad_redirect_uri: { status: 400, message: "The platform rejected the redirect URI: register REDIRECT_URI with the app." },
  oauth_authorization_url_mismatch: { status: 400, message: "The redirect URI differs from the one used to authorize. Start the install again." },
  invalid_client_id: { status: 502, message: "The platform does not know this app's client id: check CLIENT_ID." },
  bad_client_secret: { status: 502, message: "The platform rejected the app's client secret: check CLIENT_SECRET." },
  invalid_grant_type: { status: 502, message: "The platform rejected the grant type." },
  invalid_refresh_token: { status: 409, message: "The refresh token is no longer valid (already used past its grace period, or revoked): reinstall the app." },
  token_revoked: { status: 409, message: "The token has been revoked." },
  token_expired: { status: 401, message: "The token has expired." },
  invalid_auth: { status: 401, message: "The platform does not recognise this token." },
  not_authed: { status: 401, message: "No token was sent." },
  invalid_token: { status: 400, message: "The platform does not recognise this token, or it belongs to another app." },
  token_already_exchanged: { status: 409, message: "This token was already exchanged: a long-lived token can be exchanged only once." },
  token_rotation_not_enabled: {
    status: 400,
    message: "The app that issued this token does not have token rotation turned on, so its tokens cannot be exchanged.",
  },
  ratelimited: { status: 429, message: "The platform is rate limiting this app: wait and try again." },
} as const satisfies Record<string, { status: number; message: string }>;

export type KnownPlatformErrorCode = keyof typeof PLATFORM_ERRORS;

const isKnown = (code: string): code is KnownPlatformErrorCode => Object.hasOwn(PLATFORM_ERRORS, code);

/** An OAuth or token call the platform answered with `ok: false`: its code, relayed as it came, and the call as it went. */
export class PlatformError extends AppError {
  readonly platformCode: string;
  readonly result: PlatformCallResult;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "PlatformError");
  }

  constructor(method: string, result: PlatformCallResult) {
    const code =
      typeof (result.body as { error?: unknown } | undefined)?.error === "string" ? (result.body as { error: string }).error : `http_${result.status}`;
    const known = isKnown(code) ? PLATFORM_ERRORS[code] : undefined;
    const status = result.status === 429 ? 429 : (known?.status ?? (result.status >= 500 ? 502 : 400));
    const message = known?.message ?? `The platform answered ${method} with ${code}.`;
    const headers: Record<string, string> = result.retryAfterS !== undefined ? { "retry-after": String(result.retryAfterS) } : {};
    super({ relayed: code, status }, { message, headers });
    this.name = "PlatformError";
    this.platformCode = code;
    this.result = result;
    brand(this, "PlatformError");
  }
}

/** A platform error the console relays, with this code when one is given. */
export function isPlatformError(error: unknown, code?: KnownPlatformErrorCode): error is PlatformError {
  return error instanceof PlatformError && (code === undefined || error.platformCode === code);
}

/**
 * A rate-limited answer (HTTP 429) becomes the console's 429 with the platform's Retry-After, so the page
 * can wait that long instead of showing an ok:false body that came with HTTP 200.
 */
export function throwIfRateLimited(method: string, result: PlatformCallResult): void {
  if (result.status === 429) throw new PlatformError(method, result);
}
