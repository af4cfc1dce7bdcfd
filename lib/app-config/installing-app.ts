import "server-only";
import { ownerOf } from "@/lib/access/viewer";
import { logger } from "@/lib/log";
import type { AppKey } from "@/lib/installations/universal/view";
import { getSessionInstallations } from "@/lib/installations/actions/list-installations";
import type { AppConfigBackend } from "./backend";
import { readConfigToken } from "./config-token-store";
import { emulatorAdminBackend } from "./emulator-admin-backend";
import { manifestApiBackend } from "./manifest-api-backend";
import { getAppConfigRuntime, type AppConfigRuntime } from "./runtime";
import type { Viewer } from "@/lib/viewer";
import { reshapeManifest } from "./universal/manifest";

/** What "Add to workspace" needs of the app's configuration: the scopes it asks for, and the name the installation goes by. */
export interface InstallingApp {
  appId: string;
  /** The manifest's display name; null when it has none. */
  name: string | null;
  scopes: { bot: string[]; user: string[] };
}

/**
 * The backend that can read the app's configuration for this request, as the settings page chooses it
 * (service.ts), but without asking anyone for anything: the person's configuration token (the App Manifest
 * API, the platform's or the emulator's), else the emulator's admin surface. Someone outside the team has no
 * token and, against the platform, nothing can be read.
 */
async function readableBackend(runtime: AppConfigRuntime): Promise<AppConfigBackend | undefined> {
  // Nobody signed in (an outsider's install) has no token.
  const token = runtime.viewer ? await readConfigToken(ownerOf(runtime.viewer)).catch(() => undefined) : undefined;
  if (token) return manifestApiBackend(runtime);
  return runtime.upstream.kind === "emulator" ? emulatorAdminBackend(runtime) : undefined;
}

/** The app's id: given, else listed by the backend under its client id, else recorded on an installation of it this person sees. */
async function appIdOf(app: { key: AppKey; clientId: string; id?: string }, backend: AppConfigBackend, viewer: Viewer | null): Promise<string | undefined> {
  if (app.id) return app.id;
  const listed = (await backend.listApps()).find((a) => a.clientId === app.clientId)?.appId;
  if (listed) return listed;
  const installations = viewer ? await getSessionInstallations({ viewer }).catch(() => []) : [];
  return installations.find((i) => i.appKey === app.key && i.appId)?.appId;
}

/**
 * The app's configuration as "Add to workspace" uses it, when the console can read it; undefined when it
 * cannot (the platform without a configuration token, an emulator out of reach). Never throws: an install
 * goes on without it, with the scopes and the name it can do without.
 */
export async function readInstallingApp(
  viewer: Viewer | null,
  app: { key: AppKey; clientId: string; id?: string },
  runtime: AppConfigRuntime = getAppConfigRuntime(viewer),
): Promise<InstallingApp | undefined> {
  try {
    const backend = await readableBackend(runtime);
    const appId = backend && (await appIdOf(app, backend, runtime.viewer));
    if (!backend || !appId) return undefined;
    const shape = reshapeManifest((await backend.readApp(appId)).manifest);
    return { appId, name: shape.name.trim() || null, scopes: shape.scopes };
  } catch (error) {
    logger.warn({ app: app.key, err: error instanceof Error ? error.message : "unknown" }, "the app's configuration could not be read for the install");
    return undefined;
  }
}
