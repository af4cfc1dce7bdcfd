import "server-only";
import { getConfig } from "@/lib/config";
import type { AdminTarget } from "@/lib/emulator-admin/transport";
import { AppError } from "@/lib/http/app-error";
import { describeUpstream } from "@/lib/platform/platform-time";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";

/**
 * The emulator the Workspace page acts in: the embedded one, or a standalone one the console reaches through
 * PLATFORM_BASE_URL when it says it is an emulator (GET {base}/.well-known/emulator, as the platform clock
 * asks). Undefined when the upstream is the real platform, whose workspaces are not the console's to act in.
 */
export async function workspaceEmulator(): Promise<AdminTarget | undefined> {
  const { upstream, upstreamTimeoutMs } = getConfig();
  if (upstream.kind === "emulator") return { baseUrl: upstream.baseUrl, timeoutMs: upstreamTimeoutMs };
  const about = await describeUpstream(getRotationRuntime());
  return about.emulator ? { baseUrl: upstream.baseUrl, timeoutMs: upstreamTimeoutMs } : undefined;
}

/** workspaceEmulator, or not_emulator saying why. */
export async function requireWorkspaceEmulator(): Promise<AdminTarget> {
  const target = await workspaceEmulator();
  if (target) return target;
  throw new AppError("not_emulator", {
    message: `The upstream at ${getConfig().upstream.baseUrl} is the platform, not an emulator: its workspaces are not the console's to act in.`,
  });
}
