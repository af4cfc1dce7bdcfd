import "server-only";
import type { InstallationView } from "@/lib/installations/universal/view";

/**
 * The names /events gives the apps its events are for, by app id: the apps this session installed (named
 * as their installation is), then the apps whose signing secrets the console verifies with (the emulator's
 * default apps, by name even before anyone installs them). A url_verification names no app, and the
 * emulator's two default apps send identical ones: their cards differ only by this.
 */
export function eventAppNames(
  installations: ReadonlyArray<Pick<InstallationView, "app">>,
  signers: ReadonlyArray<{ appId: string | null; appName: string | null }>,
): Record<string, string> {
  const names: Record<string, string> = {};
  for (const signer of signers) if (signer.appId && signer.appName) names[signer.appId] = signer.appName;
  for (const { app } of installations) if (app.id && app.name) names[app.id] = app.name;
  return names;
}
