import "server-only";
import { isAdmin, type Viewer } from "@/lib/viewer";
import { getConfig, type Upstream } from "@/lib/config";
import { saveInstallation } from "@/lib/installations/repository";
import { canManage } from "@/lib/installations/universal/rights";
import { personOf } from "@/lib/installations/who-did-it";
import { toInstallationView, withCappedExpiries, type InstallationRecord } from "@/lib/installations/record";
import { pageVisibleInstallations } from "@/lib/installations/visibility";
import { withUpstreamInstance } from "@/lib/installations/upstream-instance";
import type { ListPage, ListQuery } from "@/lib/installations/universal/list-query";
import { UNREADABLE_SECRETS } from "@/lib/installations/universal/lifecycle";
import { TOKEN_KINDS } from "@/lib/installations/universal/token-kind";
import type { InstallationView } from "@/lib/installations/universal/view";
import { describeUpstream, toPlatformClockView, type PlatformClockView } from "@/lib/platform/platform-time";
import { withNoticedExpiry } from "@/lib/installations/rotation/freshness";
import { refresherView } from "@/lib/installations/rotation/refresher";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import type { RefresherView } from "@/lib/installations/universal/refresh-schedule";
import { VersionConflictError } from "@/lib/store";

/** What this person may do on the dashboard (lib/viewer.ts, lib/installations/universal/rights.ts). */
export interface SessionAccess {
  /** The operator of a console without sign-in, or a member listed in ADMIN_USERS: may do everything. */
  admin: boolean;
  signedIn: boolean;
  /** The signed-in person's platform user id (whose user token is theirs); null for the operator of a console without sign-in. */
  userId: string | null;
  /** Installations this person may revoke, uninstall, forget and exchange (admins: every one). */
  manageable: string[];
}

/** What GET /api/session answers: the console's pages read the session through it (lib/swr/use-session.ts). */
export interface ConsoleSession {
  ok: true;
  upstream: Upstream;
  /** The installations this person sees (lib/access): every one for the operator and for admins, else their workspace's. */
  installations: InstallationView[];
  /** Which page of them this is, of how many, and how many each filter holds (lib/installations/universal/list-query.ts). */
  page: ListPage;
  /** Who is asking, and what they may do (the server checks again before it acts). */
  access: SessionAccess;
  /** Tokens expiring within this many seconds are refreshed before their next use. */
  refreshWindowS: number;
  /**
   * The platform's time when the server answered (its clock plus the skew read from the upstream's answers,
   * lib/platform/platform-clock.ts): countdowns and token states correct the browser's clock by it.
   */
  serverTime: number;
  /** What the upstream said it is (GET {base}/.well-known/emulator): an emulator's clock can be moved. */
  platformClock: PlatformClockView;
  /** The background refresher: its settings (each token's next planned refresh follows from them) and this instance's health. */
  refresher: RefresherView;
}

/**
 * GET /api/session: a page of the installations this person sees (`query`: searched and filtered on the
 * server; without one, every one), the uninstalled ones too (their timeline and Reinstall), with a rotating
 * token the console's clock finds expired noted in its timeline once.
 */
const keepOnConflict = (read: InstallationRecord) => (error: unknown) => {
  if (error instanceof VersionConflictError) return read;
  throw error;
};

export async function getConsoleSession({
  viewer,
  by = "GET /api/session",
  query,
}: {
  viewer: Viewer;
  by?: string;
  query?: ListQuery;
}): Promise<ConsoleSession> {
  const { upstream, refreshWindowS } = getConfig();
  // Asks the upstream again when it has said nothing for a while, so a clock moved elsewhere shows.
  const runtime = getRotationRuntime();
  const about = await describeUpstream(runtime);
  const platformClock = toPlatformClockView(about);
  const now = runtime.now();
  const views: InstallationView[] = [];
  const manageable: string[] = [];
  const { installations, page } = await pageVisibleInstallations(viewer, query, now);
  const who = personOf(viewer);
  for (const installation of installations) {
    if (canManage(viewer, installation)) manageable.push(installation.id);
    // Its secrets do not open here (unreadable.ts): shown as it is, never written, so that the record is there
    // whole, and readable again, once the server has its key back.
    if (installation.problem === UNREADABLE_SECRETS) {
      views.push(toInstallationView(installation));
      continue;
    }
    // Made on an emulator that was since reset or replaced: said on its card (needs reinstalling, and why), once.
    let noticed = await withUpstreamInstance(installation, (fresh) => (fresh ? describeUpstream(runtime, true) : Promise.resolve(about)), by, now);
    if (noticed.state === "active") {
      for (const kind of TOKEN_KINDS) {
        const token = noticed[kind];
        if (token?.refreshToken && token.expiresAt !== undefined && token.expiresAt <= now) noticed = withNoticedExpiry(noticed, kind, "clock", by, now);
      }
    }
    // The note is a read's by-product: when every retry lost to other writers (a crowd looking at one
    // installation the moment its token expires, each noting it), it shows as read and another request notes it.
    if (noticed !== installation) noticed = await saveInstallation(noticed, who ? { who } : {}).catch(keepOnConflict(installation));
    views.push(withCappedExpiries(toInstallationView(noticed), now));
  }
  const access: SessionAccess = {
    admin: isAdmin(viewer),
    signedIn: viewer.kind === "member",
    userId: viewer.kind === "member" ? viewer.userId : null,
    manageable,
  };
  return { ok: true, upstream, installations: views, page, access, refreshWindowS, serverTime: now, platformClock, refresher: refresherView() };
}
