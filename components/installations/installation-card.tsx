"use client";

import { useId, useState, type ReactNode } from "react";
import { PlatformJson, PlatformText } from "@/components/platform-text";
import type { InstallationView, TokenKind, TokenView } from "@/lib/session/installation";
import { useSessionAction, type PlatformActionResult, type SessionAction } from "@/lib/swr/use-session";
import { ExchangeDialog } from "./exchange-dialog";
import { ExpiryCountdown } from "./expiry-countdown";
import { reinstallHref } from "./install-href";

interface Outcome {
  label: string;
  ok: boolean;
  message: string;
  detail?: unknown;
}

const buttonBase =
  "rounded-md px-2.5 py-1 text-xs font-semibold shadow-sm ring-1 ring-inset transition-colors disabled:cursor-not-allowed disabled:opacity-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600";
const neutral = `${buttonBase} bg-white text-slate-700 ring-slate-300 hover:bg-slate-50`;
const danger = `${buttonBase} bg-white text-rose-700 ring-rose-300 hover:bg-rose-50`;
const warn = `${buttonBase} bg-amber-50 text-amber-800 ring-amber-300 hover:bg-amber-100`;

function platformError(result: PlatformActionResult): string | undefined {
  const body = result.platform as { error?: unknown } | undefined;
  return typeof body?.error === "string" ? body.error : undefined;
}

function describeOutcome(action: SessionAction, result: PlatformActionResult): Outcome {
  const error = platformError(result);
  switch (action.kind) {
    case "test":
      return {
        label: `auth.test (${action.arg.token})`,
        ok: result.ok,
        message: result.ok ? `The token works${result.refreshed ? ": it was refreshed first" : ""}.` : `The platform answered ${error ?? "an error"}.`,
        detail: result.platform,
      };
    case "refresh":
      return { label: `refresh (${action.arg.token})`, ok: true, message: "New access token and refresh token issued and sealed in this session." };
    case "revoke":
      return {
        label: `auth.revoke (${action.arg.token})`,
        ok: result.ok,
        message: result.ok ? "The access token is revoked. Refresh to get a new one." : `The platform answered ${error ?? "an error"}.`,
        detail: result.platform,
      };
    case "exchange":
      return { label: "oauth.v2.exchange", ok: true, message: "Exchanged: this installation now uses an expiring token with a refresh token." };
    case "uninstall":
      return { label: "apps.uninstall", ok: result.ok, message: result.ok ? "Uninstalled." : `The platform answered ${error ?? "an error"}.`, detail: result.platform };
    case "forget":
      return { label: "forget", ok: true, message: "Forgotten in this browser." };
  }
}

function Badge({ tone, children }: { tone: "green" | "red" | "amber" | "slate"; children: ReactNode }) {
  const tones = {
    green: "bg-emerald-50 text-emerald-800 ring-emerald-200",
    red: "bg-rose-50 text-rose-800 ring-rose-200",
    amber: "bg-amber-50 text-amber-800 ring-amber-200",
    slate: "bg-slate-100 text-slate-700 ring-slate-200",
  };
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>{children}</span>;
}

function TokenRow({
  kind,
  token,
  owner,
  skewMs,
  refreshWindowS,
  busy,
  onAction,
  onExchange,
}: {
  kind: TokenKind;
  token: TokenView;
  owner: string | null;
  skewMs: number;
  refreshWindowS: number;
  busy: boolean;
  onAction: (kind: "test" | "refresh" | "revoke") => void;
  onExchange: () => void;
}) {
  const label = kind === "bot" ? "Bot token" : "User token";
  return (
    <div role="group" aria-label={label} className="grid gap-3 px-5 py-4 sm:grid-cols-[10rem_minmax(0,1fr)_auto] sm:items-start">
      <div>
        <p className="text-sm font-medium text-slate-900">{label}</p>
        {owner && <p className="font-mono text-xs text-slate-500">{owner}</p>}
      </div>
      <div className="min-w-0 space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <code className="rounded bg-slate-900 px-2 py-0.5 font-mono text-xs text-emerald-300" data-testid={`${kind}-token`}>
            {token.masked}
          </code>
          <ExpiryCountdown expiresAt={token.expiresAt} skewMs={skewMs} refreshWindowS={refreshWindowS} />
          {token.revoked && <Badge tone="red">revoked</Badge>}
        </div>
        {token.maskedRefreshToken && (
          <p className="text-xs text-slate-500">
            refresh token <code className="font-mono text-slate-700">{token.maskedRefreshToken}</code> · single use
          </p>
        )}
        <ul aria-label={`${label} scopes`} className="flex flex-wrap gap-1">
          {token.scopes.map((scope) => (
            <li key={scope} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] text-slate-600">
              {scope}
            </li>
          ))}
        </ul>
      </div>
      <div className="flex flex-wrap gap-1.5 sm:justify-end">
        <button type="button" className={neutral} disabled={busy} onClick={() => onAction("test")}>
          Test
        </button>
        {token.rotating ? (
          <button type="button" className={neutral} disabled={busy} onClick={() => onAction("refresh")}>
            Refresh
          </button>
        ) : (
          <button type="button" className={warn} disabled={busy} onClick={onExchange}>
            Exchange
          </button>
        )}
        <button type="button" className={danger} disabled={busy} onClick={() => onAction("revoke")}>
          Revoke
        </button>
      </div>
    </div>
  );
}

/** One installation: who it is, its tokens with live expiry, and every token action. */
export function InstallationCard({
  installation,
  skewMs,
  refreshWindowS,
  highlighted,
}: {
  installation: InstallationView;
  skewMs: number;
  refreshWindowS: number;
  highlighted: boolean;
}) {
  const { trigger, isMutating } = useSessionAction();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [exchanging, setExchanging] = useState<TokenKind | null>(null);
  const [confirmUninstall, setConfirmUninstall] = useState(false);
  const titleId = useId();

  async function run(action: SessionAction) {
    setOutcome(null);
    try {
      setOutcome(describeOutcome(action, await trigger(action)));
    } catch (error) {
      setOutcome({ label: action.kind, ok: false, message: error instanceof Error ? error.message : "The action failed." });
    }
  }

  const tokens: { kind: TokenKind; token: TokenView; owner: string | null }[] = [];
  if (installation.bot) tokens.push({ kind: "bot", token: installation.bot, owner: installation.botUserId });
  if (installation.user) tokens.push({ kind: "user", token: installation.user, owner: installation.authedUserId });

  return (
    <article
      aria-labelledby={titleId}
      data-installation={installation.id}
      className={`overflow-hidden rounded-xl border bg-white shadow-sm ${highlighted ? "border-emerald-400 ring-2 ring-emerald-100" : "border-slate-200"}`}
    >
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 bg-slate-50/60 px-5 py-4">
        <div className="space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={titleId} className="text-base font-semibold text-slate-900">
              <PlatformText>{installation.team.name || installation.team.id}</PlatformText>
            </h2>
            {installation.state === "active" ? <Badge tone="green">active</Badge> : <Badge tone="red">needs reinstall</Badge>}
            {installation.app.key === "emulator-legacy" && <Badge tone="slate">legacy app</Badge>}
          </div>
          <p className="font-mono text-xs text-slate-500">
            team {installation.team.id}
            {installation.enterprise && ` · enterprise ${installation.enterprise.id}`}
            {installation.app.id && ` · app ${installation.app.id}`}
            {installation.botUserId && ` · bot user ${installation.botUserId}`}
          </p>
        </div>
        <div className="flex items-center gap-1.5">
          {confirmUninstall ? (
            <>
              <span className="text-xs text-slate-600">Revoke every token of this installation?</span>
              <button type="button" className={danger} disabled={isMutating} onClick={() => void run({ kind: "uninstall", arg: { installation: installation.id } })}>
                Confirm uninstall
              </button>
              <button type="button" className={neutral} onClick={() => setConfirmUninstall(false)}>
                Cancel
              </button>
            </>
          ) : (
            <>
              <button type="button" className={danger} disabled={isMutating} onClick={() => setConfirmUninstall(true)}>
                Uninstall
              </button>
              <button
                type="button"
                className={neutral}
                disabled={isMutating}
                title="Remove from this browser only; nothing changes on the platform"
                onClick={() => void run({ kind: "forget", arg: { installation: installation.id } })}
              >
                Forget
              </button>
            </>
          )}
        </div>
      </header>

      {installation.state === "needs_reinstall" && (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-3 border-b border-rose-100 bg-rose-50 px-5 py-3 text-sm text-rose-800">
          <p>
            The platform rejected this installation&apos;s refresh token{installation.problem && <> (<code className="font-mono">{installation.problem}</code>)</>}. Its
            tokens cannot be renewed: install the app again.
          </p>
          <a href={reinstallHref(installation)} className="rounded-md bg-rose-600 px-3 py-1.5 text-xs font-semibold text-white hover:bg-rose-700">
            Reinstall
          </a>
        </div>
      )}

      <div className="divide-y divide-slate-100">
        {tokens.map(({ kind, token, owner }) => (
          <TokenRow
            key={kind}
            kind={kind}
            token={token}
            owner={owner}
            skewMs={skewMs}
            refreshWindowS={refreshWindowS}
            busy={isMutating}
            onAction={(action) => void run({ kind: action, arg: { installation: installation.id, token: kind } })}
            onExchange={() => setExchanging(kind)}
          />
        ))}
        {installation.incomingWebhook && (
          <div className="flex flex-wrap items-center gap-2 px-5 py-3 text-xs text-slate-600">
            <span className="font-medium text-slate-800">Incoming webhook</span>
            <PlatformText>{installation.incomingWebhook.channel}</PlatformText>
            <code className="font-mono text-slate-500">{installation.incomingWebhook.maskedUrl}</code>
          </div>
        )}
      </div>

      {outcome && (
        <div
          role="status"
          className={`border-t px-5 py-3 text-sm ${outcome.ok ? "border-emerald-100 bg-emerald-50 text-emerald-900" : "border-rose-100 bg-rose-50 text-rose-900"}`}
        >
          <p>
            <span className="font-mono text-xs font-semibold">{outcome.label}</span> · {outcome.message}
          </p>
          {outcome.detail !== undefined && outcome.detail !== null && (
            <details className="mt-2">
              <summary className="cursor-pointer text-xs text-slate-600">Platform response</summary>
              <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-900 p-3 font-mono text-xs text-slate-100">
                <PlatformJson value={outcome.detail} />
              </pre>
            </details>
          )}
        </div>
      )}

      <ExchangeDialog
        open={exchanging !== null}
        tokenLabel={exchanging === "user" ? "the user token" : "the bot token"}
        busy={isMutating}
        onClose={() => setExchanging(null)}
        onConfirm={() => {
          const kind = exchanging ?? "bot";
          setExchanging(null);
          void run({ kind: "exchange", arg: { installation: installation.id, token: kind, confirm: true } });
        }}
      />
    </article>
  );
}
