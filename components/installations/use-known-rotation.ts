"use client";

import type { KnownRotation } from "@/lib/installations/universal/lifecycle";
import type { InstallationView } from "@/lib/installations/universal/view";
import { useAppSettings } from "@/lib/swr/use-app-config";

/**
 * The app's token rotation setting, where the console can read it (the embedded emulator, or the platform
 * with a configuration token: the app settings' own route), for an installation holding a long-lived token,
 * the only kind whose buttons depend on it. A rotating token proves it on (rotation cannot be turned off).
 * "loading" until the answer comes; null when it cannot be known.
 */
export function useKnownRotation(installation: InstallationView, holdsLongLived: boolean): KnownRotation | "loading" {
  const proved = Boolean(installation.bot?.rotating || installation.user?.rotating);
  const appId = holdsLongLived && !proved ? installation.app.id : null;
  const { data, error } = useAppSettings(appId);
  if (proved) return true;
  if (!appId) return null;
  if (data) return data.tokenRotationEnabled;
  return error ? null : "loading";
}
