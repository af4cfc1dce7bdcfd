import "server-only";
import { reconcileWithKeptRefreshes } from "@/lib/rotation/freshness";
import { getRotationRuntime } from "@/lib/rotation/runtime";
import { beforeCookiesSent } from "@/lib/session/sealed-cookie";
import { tokenFingerprint, type InstallationRecord } from "./record";
import { findInstallation, saveInstallation } from "./store";

/**
 * Every installation write goes through here: never puts back a refresh token the coordinator knows was
 * replaced. The cookie is brought up to date twice: when written, and again just before the response
 * carries it, since another request (another tab, another instance) may refresh the other token kind
 * while this one goes on, for example during a slow call after its own refresh. The browser keeps
 * whichever cookie arrives last.
 */
export async function save(installation: InstallationRecord): Promise<InstallationRecord> {
  const runtime = getRotationRuntime();
  const reconciled = await reconcileWithKeptRefreshes(installation, runtime);
  await saveInstallation(reconciled);
  await beforeCookiesSent(`installation:${reconciled.id}`, async () => {
    // Forgotten or uninstalled later in this request: nothing to bring back.
    if (!(await findInstallation(reconciled.id))) return;
    const latest = await reconcileWithKeptRefreshes(reconciled, runtime);
    if (latest !== reconciled) await saveInstallation(latest);
  });
  return reconciled;
}

/**
 * Writes the installation only when its tokens or state differ from what this request read, so a slow
 * request that refreshed nothing never puts back tokens a newer request replaced.
 */
export function persistIfChanged(original: InstallationRecord) {
  let last = tokenFingerprint(original);
  return async (updated: InstallationRecord) => {
    const next = tokenFingerprint(updated);
    if (next === last) return;
    last = next;
    await save(updated);
  };
}
