import "server-only";
import { getConfig, type Upstream } from "@/lib/config";
import type { AdminTarget } from "@/lib/emulator-admin/transport";
import { AppError } from "@/lib/http/app-error";
import { describeUpstream } from "@/lib/platform/platform-time";

/**
 * Which emulator the console's upstream is: the embedded one (no PLATFORM_BASE_URL), a standalone one
 * (`npm run emulator`) that PLATFORM_BASE_URL points at, which the configuration cannot tell from the real
 * platform and the upstream says of itself (GET {base}/.well-known/emulator), or the real platform. The
 * settings page (event delivery, "Generate a configuration token"), the events, webhooks and Workspace pages
 * and the explorer's method list ask this one function, so a standalone emulator serves each as the embedded
 * one does.
 */
export type UpstreamEmulator = { kind: "embedded"; target: AdminTarget } | { kind: "standalone"; target: AdminTarget } | { kind: "platform" };

/** `upstream` and `timeoutMs` default to the configuration's (lib/app-config passes its runtime's). */
export async function upstreamEmulator(upstream: Upstream = getConfig().upstream, timeoutMs = getConfig().upstreamTimeoutMs): Promise<UpstreamEmulator> {
  const target = { baseUrl: upstream.baseUrl, timeoutMs };
  if (upstream.kind === "emulator") return { kind: "embedded", target };
  // Asked at most every 30 s (upstream-about.ts), and what the platform clock reads too.
  const about = await describeUpstream({ baseUrl: upstream.baseUrl, timeoutMs });
  return about.emulator ? { kind: "standalone", target } : { kind: "platform" };
}

/**
 * The upstream's emulator (embedded or standalone), or 404 not_emulator saying `why` the real platform has no
 * such thing: an emulator-only shortcut is never tried against the platform.
 */
export async function requireUpstreamEmulator(
  why: string,
  upstream: Upstream = getConfig().upstream,
  timeoutMs = getConfig().upstreamTimeoutMs,
): Promise<AdminTarget> {
  const found = await upstreamEmulator(upstream, timeoutMs);
  if (found.kind !== "platform") return found.target;
  throw new AppError("not_emulator", { message: `The upstream at ${upstream.baseUrl} is the platform, not an emulator: ${why}` });
}
