import "server-only";
import { getConfig, type Config } from "@/lib/config";
import { EMULATOR_MOUNT_PATH } from "@/lib/emulator";
import { upstreamEmulator } from "@/lib/upstream-emulator";
import type { WebhookUrlPolicy } from "./url-guard";

/**
 * Where webhook URLs may point, from the configuration: the platform's hosts, and the emulator that is the
 * upstream. The embedded one lives on this server's origin; a standalone one (upstreamEmulator: it says
 * it is one) at PLATFORM_BASE_URL, configuration too, which the console already calls, so its /services/
 * adds no destination a user chooses. The real platform adds nothing: its webhooks live on webhookHosts.
 */
export async function webhookUrlPolicy(config: Config = getConfig()): Promise<WebhookUrlPolicy> {
  const platform = { webhookHosts: config.webhookHosts, emulatorOrigin: null, emulatorMountPath: EMULATOR_MOUNT_PATH };
  if (config.upstream.kind === "emulator") return { ...platform, emulatorOrigin: new URL(config.appOrigin).origin };
  if ((await upstreamEmulator(config.upstream, config.upstreamTimeoutMs)).kind === "platform") return platform;
  const standalone = new URL(config.upstream.baseUrl);
  return { ...platform, emulatorOrigin: standalone.origin, emulatorMountPath: standalone.pathname.replace(/\/+$/, "") };
}
