import "server-only";
import { brand, hasBrand } from "@/lib/brand";
import { AppError } from "@/lib/http/app-error";
import type { AppConfigBackendKind, AppManifest, EventsDisabled, ManifestProblem, RequestUrlVerification } from "./universal/types";

/**
 * One app's configuration, read and changed the same way whichever way the console reaches it: the
 * embedded emulator's admin surface, or the platform's App Manifest API with an app configuration token
 * (which the emulator implements too). The settings page and its tests depend on this interface only.
 */
export interface AppConfigBackend {
  readonly kind: AppConfigBackendKind;
  /** Apps this backend can list by itself: the admin surface lists every app; the platform's API none. */
  listApps(): Promise<{ appId: string; name: string; clientId: string | null }[]>;
  /** The app's manifest, plus what only some backends know. Unknown app: AppError app_not_found (404). */
  readApp(appId: string): Promise<AppRecord>;
  /**
   * The problems the platform finds in `manifest` as the app's next configuration, without changing it;
   * null where the backend has no dry run (the admin surface: its update refuses atomically instead).
   */
  validateManifest: ((appId: string, manifest: AppManifest) => Promise<ManifestProblem[]>) | null;
  /** Replaces the app's whole configuration. A refused manifest: ManifestRefusedError, nothing changed. */
  updateManifest(appId: string, manifest: AppManifest): Promise<void>;
  /**
   * Sends the event request URL a fresh url_verification challenge and answers the outcome; null where the
   * backend cannot (the platform's API has no such method: its app settings page has a Retry button).
   */
  verifyRequestUrl: ((appId: string) => Promise<RequestUrlVerification | null>) | null;
  /**
   * Sends the app its events again after the platform disabled them (its deliveries mostly failed); null where
   * the backend cannot (the platform's API has no such method: the app's Event Subscriptions page does it).
   */
  enableEvents: ((appId: string) => Promise<void>) | null;
}

/** Server-side only: the credentials are in clear here and are masked before they leave lib/app-config. */
export interface AppRecord {
  appId: string;
  manifest: AppManifest;
  credentials: { clientId: string; clientSecret: string; signingSecret: string } | null;
  /** undefined: this backend cannot tell; null: the app has no request URL. */
  verification: RequestUrlVerification | null | undefined;
  /** undefined: this backend cannot tell; null: events are delivered. */
  eventsDisabled: EventsDisabled | null | undefined;
}

/** The platform's invalid_manifest, with each problem and its pointer in the message a person reads. */
export class ManifestRefusedError extends AppError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "ManifestRefusedError");
  }

  constructor(readonly problems: ManifestProblem[]) {
    const listed = problems.map((p) => `${p.pointer}: ${p.message}`).join("; ");
    super("invalid_manifest", { message: `The platform refused the manifest, so nothing changed: ${listed || "no reason given"}.` });
    this.name = "ManifestRefusedError";
    brand(this, "ManifestRefusedError");
  }
}

export function appNotFound(appId: string, detail: string): AppError {
  return new AppError("app_not_found", { message: `No app ${appId} ${detail}.` });
}
