import "server-only";
import { z } from "zod";
import { findInstallation } from "@/lib/installations/repository";
import { callMethod } from "@/lib/platform";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";

/** A profile image as users.info answers it: an http(s) URL short enough to keep in the page's sealed cookie. */
const imageUrl = z
  .string()
  .max(500)
  .regex(/^https?:\/\//);
const UsersInfo = z.object({
  ok: z.literal(true),
  user: z.object({ profile: z.object({ image_72: imageUrl.optional(), image_48: imageUrl.optional() }) }),
});

/**
 * The app's icon, for the page an install from outside the team ends on. The platform shows an app by its
 * bot user's picture (which is the app's icon), and tells it to the new bot token itself: users.info on
 * the bot user (users:read, which the console's installs ask for). Not kept: only that page shows it, and
 * without the scope, or on any failure, the page shows the app's initials instead.
 */
export async function readAppIcon(installationId: string): Promise<string | undefined> {
  const installation = await findInstallation(installationId).catch(() => undefined);
  const token = installation?.bot?.value;
  if (!token || !installation.botUserId) return undefined;
  const runtime = getRotationRuntime();
  try {
    const result = await callMethod({
      baseUrl: runtime.baseUrl,
      token,
      method: "users.info",
      params: { user: installation.botUserId },
      timeoutMs: runtime.timeoutMs,
      ...(runtime.transport ? { transport: runtime.transport } : {}),
    });
    const answer = UsersInfo.safeParse(result.body);
    return answer.success ? (answer.data.user.profile.image_72 ?? answer.data.user.profile.image_48) : undefined;
  } catch {
    return undefined;
  }
}
