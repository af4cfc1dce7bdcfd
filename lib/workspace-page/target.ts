import "server-only";
import { getConfig } from "@/lib/config";
import type { AdminTarget } from "@/lib/emulator-admin/transport";
import { AppError } from "@/lib/http/app-error";
import { upstreamEmulator } from "@/lib/upstream-emulator";

/**
 * The emulator the Workspace page acts in (upstreamEmulator: the embedded one, or a standalone one through
 * PLATFORM_BASE_URL), or not_emulator saying why: the real platform's workspaces are not the console's to act in.
 */
export async function requireWorkspaceEmulator(): Promise<AdminTarget> {
  const upstream = await upstreamEmulator();
  if (upstream.kind !== "platform") return upstream.target;
  throw new AppError("not_emulator", {
    message: `The upstream at ${getConfig().upstream.baseUrl} is the platform, not an emulator: its workspaces are not the console's to act in.`,
  });
}
