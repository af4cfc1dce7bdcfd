import "server-only";
import { mentionEmulatorApp, verifyEmulatorRequestUrl } from "@/lib/emulator-admin/client";
import type { AdminTarget } from "@/lib/emulator-admin/transport";
import type { MentionResult } from "@/lib/emulator-admin/universal/schemas";
import { AppError, isRelayedError } from "@/lib/http/app-error";
import type { Viewer } from "@/lib/viewer";
import { requireInstallation } from "@/lib/installations/visibility";
import { upstreamEmulator } from "@/lib/upstream-emulator";

/**
 * A member of the emulated workspace mentions the bot user of one of this session's installations in a
 * channel; the emulator then signs and delivers an app_mention to the app's request URL (this console's
 * POST /api/events), so the events page can show one arrive. The emulator delivers only to a verified
 * request URL; the one it verified when it started may have failed (a development server still compiling
 * its route takes longer than the 3 seconds the platform waits), so an unverified URL, which is this
 * console's own, is verified again once.
 */
export async function mentionInstallationApp(viewer: Viewer, installationId: string, text: string | undefined): Promise<MentionResult> {
  const installation = await requireInstallation(viewer, installationId);
  if (!installation.appId) throw new AppError("no_app_id");
  const appId = installation.appId;
  const upstream = await upstreamEmulator();
  if (upstream.kind === "platform") throw new AppError("not_emulator");
  const target = upstream.target;
  // The installation's own workspace: the app's installation in another would post there instead.
  const mention = () => mentionEmulatorApp(target, { app_id: appId, team_id: installation.team.id, ...(text ? { text } : {}) });
  try {
    return await mention();
  } catch (error) {
    if (!isRelayedError(error, "request_url_not_verified")) throw error;
    await requireVerifiedRequestUrl(target, appId);
    return mention();
  }
}

/** Has the emulator send its app a fresh url_verification challenge; refuses when it is not answered. */
async function requireVerifiedRequestUrl(target: AdminTarget, appId: string): Promise<void> {
  const verification = await verifyEmulatorRequestUrl(target, appId);
  if (verification?.state !== "verified") {
    const why = verification?.failure === "http_error" ? `HTTP ${verification.status}` : (verification?.failure ?? "no answer");
    throw new AppError("request_url_not_verified", {
      message: `The emulator sends events only to a verified request URL, and ${verification?.url ?? "this app's request URL"} did not answer its url_verification challenge (${why}).`,
    });
  }
}
