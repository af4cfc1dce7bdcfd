import "server-only";
import { enableEmulatorEvents, listEmulatorApps, replaceEmulatorAppManifest, verifyEmulatorRequestUrl } from "@/lib/emulator-admin/client";
import { emulatorTarget, type AdminTarget } from "@/lib/emulator-admin/transport";
import type { RequestUrlVerificationWire } from "@/lib/emulator-admin/universal/schemas";
import { AppError, isRelayedError } from "@/lib/http/app-error";
import { appNotFound, ManifestRefusedError, type AppConfigBackend, type AppRecord } from "./backend";
import type { AppConfigRuntime } from "./runtime";
import type { AppManifest, RequestUrlVerification } from "./universal/types";

/**
 * Backend (a): the embedded emulator's admin surface, through the console's client of it
 * (lib/emulator-admin), its answers turned into app-config's records and errors here. It exists only while
 * the emulator is the upstream; nothing the real platform offers depends on it.
 */

function reshapeVerification(wire: RequestUrlVerificationWire | undefined): RequestUrlVerification | null {
  if (!wire) return null;
  return { url: wire.url, state: wire.state, at: wire.at, durationMs: wire.duration_ms, status: wire.status, failure: wire.failure };
}

/** The upstream's emulator, as app settings reach it; not_emulator against the real platform. */
export function adminTargetOf(runtime: AppConfigRuntime): AdminTarget {
  return emulatorTarget(runtime.upstream, runtime.timeoutMs);
}

/** The admin surface's app_not_found, as app settings say it; any other error as it came. */
function appNotFoundFor(appId: string): (error: unknown) => never {
  return (error) => {
    throw isRelayedError(error, "app_not_found") ? appNotFound(appId, "in the emulator") : error;
  };
}

/** `target`: the emulator upstreamEmulator found (a standalone one too); by default the runtime's embedded one. */
export function emulatorAdminBackend(runtime: AppConfigRuntime, target?: AdminTarget): AppConfigBackend {
  const at = () => target ?? adminTargetOf(runtime);
  return {
    kind: "emulator-admin",

    async listApps() {
      return (await listEmulatorApps(at())).map((a) => ({ appId: a.app_id, name: a.name, clientId: a.client_id }));
    },

    async readApp(appId): Promise<AppRecord> {
      const app = (await listEmulatorApps(at())).find((a) => a.app_id === appId);
      if (!app) throw appNotFound(appId, "in the emulator");
      const { settings, ...rest } = app.manifest as AppManifest;
      // The app's rotation as it is (the manifest as given may leave the setting out).
      const manifest: AppManifest = {
        ...rest,
        settings: {
          ...(typeof settings === "object" && settings !== null && !Array.isArray(settings) ? settings : {}),
          token_rotation_enabled: app.token_rotation_enabled,
        },
      };
      return {
        appId,
        manifest,
        credentials: { clientId: app.client_id, clientSecret: app.client_secret, signingSecret: app.signing_secret },
        verification: reshapeVerification(app.event_subscriptions?.request_url_verification),
        eventsDisabled: app.event_subscriptions?.disabled ?? null,
      };
    },

    validateManifest: null,

    async updateManifest(appId, manifest) {
      const problems = await replaceEmulatorAppManifest(at(), appId, manifest).catch(appNotFoundFor(appId));
      if (problems) throw new ManifestRefusedError(problems);
    },

    async verifyRequestUrl(appId) {
      const verification = await verifyEmulatorRequestUrl(at(), appId).catch((error: unknown) => {
        if (isRelayedError(error, "no_request_url")) throw new AppError("no_request_url");
        return appNotFoundFor(appId)(error);
      });
      return reshapeVerification(verification);
    },

    async enableEvents(appId) {
      await enableEmulatorEvents(at(), appId).catch(appNotFoundFor(appId));
    },
  };
}
