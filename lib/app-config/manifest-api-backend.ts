import "server-only";
import { AppError } from "@/lib/http/app-error";
import { callMethod, platformErrorCode, throwIfRateLimited, type ParamValue, type PlatformCallResult } from "@/lib/platform";
import { appNotFound, ManifestRefusedError, type AppConfigBackend, type AppRecord } from "./backend";
import { callWithConfigToken } from "./config-token";
import type { AppConfigRuntime } from "./runtime";
import type { AppManifest, ManifestProblem } from "./universal/types";

/**
 * Backend (b): the platform's App Manifest API (apps.manifest.export, .validate, .update) with the app
 * configuration token pasted into this browser. The same calls reach the real platform and the emulator.
 * The API says nothing of an app's credentials or of its request URL's verification, and lists no apps.
 */

function problemsOf(result: PlatformCallResult): ManifestProblem[] {
  const errors = (result.body as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.map((e: { message?: unknown; pointer?: unknown }) => ({
    message: typeof e?.message === "string" ? e.message : "refused",
    pointer: typeof e?.pointer === "string" ? e.pointer : "/",
  }));
}

async function call(runtime: AppConfigRuntime, method: string, params: Record<string, ParamValue>): Promise<PlatformCallResult> {
  const result = await callWithConfigToken(runtime, (token) =>
    callMethod({ baseUrl: runtime.upstream.baseUrl, token, method, params, timeoutMs: runtime.timeoutMs }),
  );
  throwIfRateLimited(method, result);
  return result;
}

function failure(method: string, appId: string, result: PlatformCallResult): AppError {
  const code = platformErrorCode(result) ?? `http_${result.status}`;
  if (code === "app_not_found" || code === "invalid_app_id")
    return appNotFound(appId, `that this configuration token can manage (the platform answered ${code})`);
  if (code === "invalid_manifest") return new ManifestRefusedError(problemsOf(result));
  return new AppError("platform_error", { message: `The platform answered ${method} with ${code}.` });
}

export function manifestApiBackend(runtime: AppConfigRuntime): AppConfigBackend {
  return {
    kind: "manifest-api",

    async listApps() {
      return [];
    },

    async readApp(appId): Promise<AppRecord> {
      const result = await call(runtime, "apps.manifest.export", { app_id: appId });
      const manifest = (result.body as { manifest?: unknown } | undefined)?.manifest;
      if (!result.ok) throw failure("apps.manifest.export", appId, result);
      if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
        throw new AppError("platform_error", { message: "The platform's apps.manifest.export answer holds no manifest." });
      }
      return { appId, manifest: manifest as AppManifest, credentials: null, verification: undefined, eventsDisabled: undefined };
    },

    async validateManifest(appId, manifest) {
      const result = await call(runtime, "apps.manifest.validate", { app_id: appId, manifest: JSON.stringify(manifest) });
      if (result.ok) return [];
      if (platformErrorCode(result) === "invalid_manifest") return problemsOf(result);
      throw failure("apps.manifest.validate", appId, result);
    },

    async updateManifest(appId, manifest) {
      const result = await call(runtime, "apps.manifest.update", { app_id: appId, manifest: JSON.stringify(manifest) });
      if (!result.ok) throw failure("apps.manifest.update", appId, result);
    },

    verifyRequestUrl: null,
    enableEvents: null,
  };
}
