"use client";

import { formatDateTime } from "@/lib/format";
import { Badge, BUTTON } from "@/components/ui/primitives";
import type { TokenView } from "@/lib/installations/universal/view";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { lifecycleState, type KnownRotation, type LifecycleStateId, type LifecycleTransition } from "@/lib/installations/universal/lifecycle";
import { ActionOutcomeStatus, type ActionOutcome } from "./action-outcome";
import { ExpiryCountdown } from "./expiry-countdown";

/** What a person reads next to the masked token: the state, with a countdown only while the token can expire. */
function TokenState({ state, token, skewMs, refreshWindowS }: { state: LifecycleStateId; token: TokenView; skewMs: number; refreshWindowS: number }) {
  switch (state) {
    case "expiring":
    case "expired":
      return <ExpiryCountdown expiresAt={token.expiresAt} skewMs={skewMs} refreshWindowS={refreshWindowS} />;
    case "long_lived":
      return <Badge tone="neutral">long-lived · never expires</Badge>;
    case "revoked":
      return (
        <span className="inline-flex items-center gap-1.5 text-xs text-slate-700">
          <Badge tone="error">revoked</Badge>
          {token.rotating ? "Refresh issues a new one" : "reinstall to get a new one"}
        </span>
      );
    case "needs_reinstall":
    case "uninstalled":
    case "refresh_token":
      return <Badge tone="error">dead · reinstall</Badge>;
  }
}

/**
 * One token: masked, its state in the lifecycle (a countdown only while it can expire), its refresh token
 * while it can be spent, its scopes, and the buttons of the transitions the console can take from here.
 */
export function TokenRow({
  kind,
  token,
  owner,
  state,
  holdsRefresh,
  transitions,
  settingsHref,
  rotation,
  outcome,
  skewMs,
  now,
  refreshWindowS,
  busy,
  onTest,
  onTransition,
  plannedRefreshAt,
}: {
  kind: TokenKind;
  token: TokenView;
  owner: string | null;
  state: LifecycleStateId;
  holdsRefresh: boolean;
  transitions: LifecycleTransition[];
  /** The app settings page for this app (turning rotation on), when the app is known. */
  settingsHref: string | null;
  /** The app's token rotation setting, when the console knows it: the words beside Turn on rotation follow it. */
  rotation: KnownRotation;
  /** The last Test, Refresh, Exchange or Revoke of this token, shown beside the buttons. */
  outcome: ActionOutcome | null;
  skewMs: number;
  /** The platform's time, as the card's clock reads it (the browser's plus skewMs). */
  now: number;
  refreshWindowS: number;
  busy: boolean;
  onTest: (() => void) | null;
  onTransition: (transition: LifecycleTransition) => void;
  /** When the background refresher plans to refresh it (the platform's time); null when it will not. */
  plannedRefreshAt: number | null;
}) {
  const label = kind === "bot" ? "Bot token" : "User token";
  const dead = state === "needs_reinstall" || state === "uninstalled";
  return (
    <div role="group" aria-label={label} className="grid gap-3 px-5 py-4 sm:grid-cols-[9rem_minmax(0,1fr)] sm:items-start">
      <div>
        <p className="text-sm font-medium text-slate-900">{label}</p>
        {owner && <p className="font-mono text-xs text-slate-600">{owner}</p>}
      </div>
      <div className="min-w-0 space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <code
            className={`rounded bg-slate-900 px-2 py-0.5 font-mono text-xs text-emerald-300 ${dead || state === "revoked" ? "line-through decoration-rose-400" : ""}`}
            data-testid={`${kind}-token`}
          >
            {token.masked}
          </code>
          <TokenState state={state} token={token} skewMs={skewMs} refreshWindowS={refreshWindowS} />
        </div>
        <p className="text-xs text-slate-600">
          State: <span className="font-medium text-slate-800">{lifecycleState(state).label}</span>
          {holdsRefresh && token.maskedRefreshToken && (
            <>
              {" "}
              · refresh token <code className="whitespace-nowrap font-mono text-slate-800">{token.maskedRefreshToken}</code> (single use)
            </>
          )}
        </p>
        {plannedRefreshAt !== null && !dead && state !== "revoked" && (
          <p className="text-xs text-slate-600" data-testid={`${kind}-planned-refresh`}>
            Background refresh:{" "}
            <span className="font-medium text-slate-800">
              {plannedRefreshAt <= now ? "due now (at the refresher's next pass)" : `planned at ${formatDateTime(plannedRefreshAt)}`}
            </span>
          </p>
        )}
        <ul aria-label={`${label} scopes`} className="flex flex-wrap gap-1">
          {token.scopes.map((scope) => (
            <li key={scope} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] text-slate-700">
              {scope}
            </li>
          ))}
        </ul>
        {rotation === false && transitions.some((t) => t.id === "turn_on_rotation") && (
          <p className="text-xs text-slate-700">
            Token rotation is off for this app, so there is no Exchange: the platform would refuse it until rotation is on.
          </p>
        )}
        {(onTest || transitions.some((t) => t.action !== "reinstall")) && (
          <div className="flex flex-wrap items-center gap-1.5 pt-1">
            {onTest && (
              <button type="button" className={BUTTON.secondary} disabled={busy} onClick={onTest}>
                Test
              </button>
            )}
            {transitions.map((t) => {
              switch (t.action) {
                case "refresh":
                  return (
                    <button key={t.id} type="button" className={BUTTON.secondary} disabled={busy} onClick={() => onTransition(t)}>
                      Refresh
                    </button>
                  );
                case "exchange":
                  return (
                    <button key={t.id} type="button" className={BUTTON.secondary} disabled={busy} onClick={() => onTransition(t)}>
                      Exchange
                    </button>
                  );
                case "turn_on_rotation":
                  return settingsHref ? (
                    <a key={t.id} href={settingsHref} className="px-1 text-sm font-medium text-emerald-800 underline underline-offset-2">
                      Turn on rotation (app settings)
                    </a>
                  ) : null;
                case "revoke":
                  return (
                    <button key={t.id} type="button" className={BUTTON.danger} disabled={busy} onClick={() => onTransition(t)}>
                      {/* A long-lived token's revoke asks first: nothing brings it back but a reinstall. */}
                      {t.id === "revoke_without_rotation" || !token.rotating ? "Revoke…" : "Revoke"}
                    </button>
                  );
                default:
                  return null;
              }
            })}
          </div>
        )}
        <ActionOutcomeStatus kind={kind} outcome={outcome} />
      </div>
    </div>
  );
}
