import "server-only";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { logger } from "@/lib/log";
import { MAX_APP_NAME_CHARS } from "./record";
import type { RotationRuntime } from "@/lib/rotation/runtime";

const AdminApps = z.object({ ok: z.literal(true), apps: z.array(z.object({ app_id: z.string(), name: z.string() })) });

/**
 * The name of an installed app, to name the installation by ("Switchboard Rotation in Emulated Workspace 2").
 * The emulator tells it from its apps' manifests, on its admin surface (which answers its own origin, as the
 * server says it here). The platform tells a token's holder no app name (oauth.v2.access names the app by its
 * id only), so against it the installation is named by its app id. Looked up when an installation is made
 * or reinstalled, never on a call's path; a lookup that fails only costs the name.
 */
export async function lookupAppName(appId: string | undefined, runtime: RotationRuntime): Promise<string | undefined> {
  if (!appId || getConfig().upstream.kind !== "emulator") return undefined;
  try {
    const request = new Request(`${runtime.baseUrl}/admin/apps`, {
      headers: { origin: new URL(runtime.baseUrl).origin },
      signal: AbortSignal.timeout(runtime.timeoutMs),
    });
    const response = runtime.transport ? await runtime.transport(request) : await fetch(request, { cache: "no-store" });
    const parsed = AdminApps.safeParse(await response.json());
    const name = parsed.success ? parsed.data.apps.find((app) => app.app_id === appId)?.name : undefined;
    return name?.trim().slice(0, MAX_APP_NAME_CHARS) || undefined;
  } catch (error) {
    logger.warn(
      { appId, err: error instanceof Error ? error.name : "unknown" },
      "the emulator did not tell the app's name: the installation is named by its app id",
    );
    return undefined;
  }
}
