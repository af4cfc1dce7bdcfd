import "server-only";
import { getConfig, type Config } from "@/lib/config";
import { EMULATOR_MOUNT_PATH } from "@/lib/emulator";
import type { WebhookUrlPolicy } from "./url-guard";

/** Where webhook URLs may point, from the configuration: the platform's hosts, and the embedded emulator. */
export function webhookUrlPolicy(config: Config = getConfig()): WebhookUrlPolicy {
  return {
    webhookHosts: config.webhookHosts,
    emulatorOrigin: config.upstream.kind === "emulator" ? new URL(config.appOrigin).origin : null,
    emulatorMountPath: EMULATOR_MOUNT_PATH,
  };
}
