import "server-only";
import type { Viewer } from "@/lib/viewer";
import { AppError } from "@/lib/http/app-error";
import { exchangeLongLivedToken, isPlatformError, maskToken } from "@/lib/platform";
import { lookupAppName } from "../app-name";
import { installationFromGrant, installationIdFor, requireLongLivedToken, toInstallationView, type InstallationRecord } from "../record";
import { findInstallation, saveInstallation, withTimeline } from "../repository";
import { needsReinstallError } from "../rotation/refresh-errors";
import { getRotationRuntime } from "../rotation/runtime";
import { prependEntry, timelineCause, timelineErrorCode, type TimelineEntry } from "../universal/timeline";
import { TOKEN_KINDS, type TokenKind } from "../universal/token-kind";
import type { AppKey, InstallationView } from "../universal/view";
import { requireInstallation, requireManager } from "../visibility";
import { personOf } from "../who-did-it";

export type ExchangeRequest = { installationId: string; tokenKind: TokenKind } | { pastedToken: string; appKey: AppKey };

/**
 * oauth.v2.exchange: a long-lived token becomes an expiring one with a refresh token, and the original
 * stops working for good. Either an installation's own long-lived token, or a pasted one, which then
 * becomes (or joins) an installation in the store. The exchange, or the platform's refusal of
 * an installation's token, goes into its timeline.
 */
export async function exchangeSessionToken({
  viewer,
  request,
  by = "an exchange request",
}: {
  viewer: Viewer;
  request: ExchangeRequest;
  by?: string;
}): Promise<InstallationView> {
  const runtime = getRotationRuntime();
  const who = personOf(viewer);
  const save = (record: InstallationRecord) => saveInstallation(record, who ? { who } : {});
  let previous: InstallationRecord | undefined;
  let token: string;
  let appKey: AppKey;
  let kind: TokenKind;
  if ("installationId" in request) {
    previous = await requireInstallation(viewer, request.installationId);
    requireManager(viewer, previous, "exchange its tokens");
    if (previous.state === "needs_reinstall") throw needsReinstallError(previous);
    kind = request.tokenKind;
    token = requireLongLivedToken(previous, kind).value;
    appKey = previous.appKey;
  } else {
    // A pasted token names no installation yet, and whichever it joins was installed by someone else.
    if (!viewer.admin) throw new AppError("not_allowed", { message: "Only an admin may exchange a pasted token." });
    token = request.pastedToken;
    appKey = request.appKey;
    kind = token.startsWith("xoxp-") ? "user" : "bot";
  }
  const cause = timelineCause(by);
  let grant: Awaited<ReturnType<typeof exchangeLongLivedToken>>["grant"];
  try {
    ({ grant } = await exchangeLongLivedToken({ baseUrl: runtime.baseUrl, credentials: runtime.credentialsFor(appKey), token, timeoutMs: runtime.timeoutMs }));
  } catch (error) {
    if (previous && isPlatformError(error)) {
      const entry: TimelineEntry = {
        at: runtime.now(),
        type: "exchange_failed",
        token: kind,
        masked: maskToken(token),
        error: timelineErrorCode(error.platformCode),
        by: cause,
      };
      await save({ ...previous, timeline: prependEntry(previous.timeline, entry) }).catch(() => {});
    }
    throw error;
  }
  if (!previous && grant.team) {
    previous = await findInstallation(installationIdFor(grant.team.id, grant.appId, appKey), { holder: { viewer } });
  }
  if (!grant.team && !previous) throw new AppError("upstream_bad_answer", { message: "The platform's exchange answer named no team." });
  const appName = previous?.appName ? undefined : await lookupAppName(grant.appId ?? previous?.appId, runtime);
  // An exchanged user token stays its holder's (the long-lived one it replaces was theirs).
  const userHolder = kind === "user" && previous && "installationId" in request ? previous.userHolder : undefined;
  const exchanged = installationFromGrant(grant, appKey, runtime.now(), previous, appName, userHolder !== undefined ? { userHolder } : {});
  const issued = exchanged[kind] ?? exchanged.bot ?? exchanged.user;
  // The tokens of an authorization that died stay dead: the record says which it no longer keeps.
  const dropped = previous ? TOKEN_KINDS.flatMap((k) => (previous?.[k] && !exchanged[k] ? [maskToken(previous[k].value)] : [])) : [];
  const now = runtime.now();
  const installation = await save({
    ...exchanged,
    timeline: prependEntry(exchanged.timeline, {
      at: now,
      type: "exchanged",
      token: kind,
      from: maskToken(token),
      to: maskToken(issued?.value ?? ""),
      ...(dropped.length > 0 ? { dropped } : {}),
      by: cause,
    }),
  });
  return toInstallationView(await withTimeline(installation));
}
