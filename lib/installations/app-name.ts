import "server-only";
import { getConfig } from "@/lib/config";
import { listEmulatorApps } from "@/lib/emulator-admin/client";
import { emulatorTarget } from "@/lib/emulator-admin/transport";
import { logger } from "@/lib/log";
import { MAX_APP_NAME_CHARS } from "./record";
import type { RotationRuntime } from "@/lib/installations/rotation/runtime";

/**
 * The name of an installed app, to name the installation by ("Switchboard Rotation in Emulated Workspace 2"),
 * when the emulator is the upstream: its apps' manifests, read through the console's one client of its admin
 * surface (lib/emulator-admin), with the admin credential, which an exposed console's emulator requires. The
 * platform tells a token's holder no app name (oauth.v2.access names the app by its id only): there the app's
 * configuration names it when the console can read it (lib/app-config/installing-app.ts, at install). Looked
 * up when an installation is made or exchanged, never on a call's path; a lookup that fails costs only the
 * name, and the record keeps the one it had.
 */
export async function lookupAppName(appId: string | undefined, runtime: RotationRuntime): Promise<string | undefined> {
  const { upstream } = getConfig();
  if (!appId || upstream.kind !== "emulator") return undefined;
  try {
    const name = (await listEmulatorApps(emulatorTarget(upstream, runtime.timeoutMs))).find((app) => app.app_id === appId)?.name;
    return name?.trim().slice(0, MAX_APP_NAME_CHARS) || undefined;
  } catch (error) {
    logger.warn({ appId, err: error instanceof Error ? error.message : "unknown" }, "the emulator did not tell the app's name");
    return undefined;
  }
}
