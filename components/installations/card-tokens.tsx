"use client";

import type { KnownRotation, InstallationPhase, LifecycleTransition } from "@/lib/installations/universal/lifecycle";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import type { InstallationView } from "@/lib/installations/universal/view";
import { plannedRefreshAt, type RefresherView } from "@/lib/installations/universal/refresh-schedule";
import type { ActionOutcome } from "./action-outcome";
import type { HeldToken } from "./held-tokens";
import { IncomingWebhook } from "./incoming-webhook";
import { PeopleTokens } from "./people-tokens";
import { TokenRow } from "./token-row";

/**
 * What the installation holds: a row per token with its buttons and last result, every person's user
 * token when there are others, and the incoming webhook.
 */
export function CardTokens({
  installation,
  phase,
  held,
  rotation,
  outcomes,
  skewMs,
  now,
  refreshWindowS,
  refresher,
  viewerId,
  busy,
  onTest,
  onTransition,
}: {
  installation: InstallationView;
  phase: InstallationPhase;
  held: HeldToken[];
  rotation: KnownRotation | "loading";
  outcomes: Partial<Record<TokenKind, ActionOutcome>>;
  skewMs: number;
  now: number;
  refreshWindowS: number;
  refresher: RefresherView | null;
  viewerId: string | null;
  busy: boolean;
  onTest: (kind: TokenKind) => void;
  onTransition: (kind: TokenKind, transition: LifecycleTransition) => void;
}) {
  const settingsHref = installation.app.id ? `/settings?app=${encodeURIComponent(installation.app.id)}` : null;
  return (
    <>
      {held.map(({ kind, token, owner, diagram }) => (
        <TokenRow
          key={kind}
          kind={kind}
          token={token}
          owner={owner}
          state={diagram.state}
          holdsRefresh={diagram.holdsRefresh}
          transitions={diagram.transitions}
          settingsHref={settingsHref}
          rotation={rotation === "loading" ? null : rotation}
          outcome={outcomes[kind] ?? null}
          skewMs={skewMs}
          now={now}
          refreshWindowS={refreshWindowS}
          busy={busy}
          onTest={phase === "active" ? () => onTest(kind) : null}
          onTransition={(transition) => onTransition(kind, transition)}
          plannedRefreshAt={
            refresher?.enabled && token.rotating && token.expiresAt !== null && phase === "active"
              ? plannedRefreshAt(
                  { installationId: installation.id, kind, userId: kind === "user" ? installation.userHolder : null },
                  token.expiresAt,
                  refresher.horizonS,
                  refresher.spreadS,
                )
              : null
          }
        />
      ))}
      {held.length === 0 && <p className="px-5 py-4 text-sm text-slate-600">No tokens: apps.uninstall revoked them. Reinstall to get new ones.</p>}
      <PeopleTokens installation={installation} viewerId={viewerId} now={now} />
      {installation.incomingWebhook && <IncomingWebhook webhook={installation.incomingWebhook} />}
    </>
  );
}
