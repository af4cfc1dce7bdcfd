import "server-only";
import { z } from "zod";
import { callEmulatorAdmin as callAdmin, type AdminAnswer } from "@/lib/emulator-admin-client";
import { AppError } from "@/lib/http/app-error";
import { appNotFound, ManifestRefusedError, type AppConfigBackend, type AppRecord } from "./backend";
import type { AppConfigRuntime } from "./runtime";
import type { AppManifest, ManifestProblem, RequestUrlVerification } from "./universal/types";

/**
 * Backend (a): the embedded emulator's admin surface, called in-process with the admin token
 * (lib/emulator-admin-client.ts), as lib/events/emulator-admin.ts does. It exists only while the emulator
 * is the upstream; nothing the real platform offers depends on it.
 */

const VerificationWire = z
  .object({
    url: z.string(),
    state: z.enum(["pending", "verified", "failed"]),
    at: z.string(),
    duration_ms: z.number().nullable(),
    status: z.number().nullable(),
    failure: z.string().nullable(),
  })
  .nullable();

const AdminApp = z.object({
  app_id: z.string(),
  name: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
  signing_secret: z.string(),
  token_rotation_enabled: z.boolean(),
  event_subscriptions: z.object({ request_url_verification: VerificationWire }).partial().optional(),
  manifest: z.record(z.string(), z.unknown()),
});

export function reshapeVerification(wire: z.infer<typeof VerificationWire> | undefined): RequestUrlVerification | null {
  if (!wire) return null;
  return { url: wire.url, state: wire.state, at: wire.at, durationMs: wire.duration_ms, status: wire.status, failure: wire.failure };
}

export function emulatorBaseUrl(runtime: AppConfigRuntime): string {
  if (runtime.upstream.kind !== "emulator") throw new AppError("not_emulator");
  return runtime.upstream.baseUrl;
}

/** One call to the admin surface (in-process, with the admin token); any answer is returned, only no answer throws. */
export function callEmulatorAdmin(runtime: AppConfigRuntime, path: string, body?: unknown): Promise<AdminAnswer> {
  return callAdmin(path, { baseUrl: emulatorBaseUrl(runtime), body, timeoutMs: runtime.timeoutMs });
}

function failed(path: string, answer: AdminAnswer): AppError {
  const code = typeof answer.body.error === "string" ? answer.body.error : `http_${answer.status}`;
  return new AppError(
    { relayed: code, status: answer.status >= 400 && answer.status < 500 ? answer.status : 502 },
    { message: `The emulator's admin surface answered ${path} with ${code}.` },
  );
}

async function listAdminApps(runtime: AppConfigRuntime) {
  const answer = await callEmulatorAdmin(runtime, "apps");
  if (answer.body.ok !== true) throw failed("apps", answer);
  return z.array(AdminApp).parse(answer.body.apps);
}

export function emulatorAdminBackend(runtime: AppConfigRuntime): AppConfigBackend {
  return {
    kind: "emulator-admin",

    async listApps() {
      return (await listAdminApps(runtime)).map((a) => ({ appId: a.app_id, name: a.name, clientId: a.client_id }));
    },

    async readApp(appId): Promise<AppRecord> {
      const app = (await listAdminApps(runtime)).find((a) => a.app_id === appId);
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
      };
    },

    validateManifest: null,

    async updateManifest(appId, manifest) {
      const answer = await callEmulatorAdmin(runtime, "apps", { app_id: appId, manifest });
      if (answer.body.ok === true) return;
      if (answer.body.error === "invalid_manifest") throw new ManifestRefusedError((answer.body.errors ?? []) as ManifestProblem[]);
      if (answer.body.error === "app_not_found") throw appNotFound(appId, "in the emulator");
      throw failed("apps", answer);
    },

    async verifyRequestUrl(appId) {
      const path = `apps/${encodeURIComponent(appId)}/verify`;
      const answer = await callEmulatorAdmin(runtime, path, {});
      if (answer.body.error === "app_not_found") throw appNotFound(appId, "in the emulator");
      if (answer.body.error === "no_request_url") throw new AppError("no_request_url");
      if (answer.body.ok !== true) throw failed(path, answer);
      return reshapeVerification(VerificationWire.parse(answer.body.request_url_verification));
    },
  };
}
