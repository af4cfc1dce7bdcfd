"use client";

import { useState, type FormEvent } from "react";
import { Badge, BUTTON, INPUT, Panel } from "@/components/ui/primitives";
import { useNow, useServerSkew } from "@/components/use-now";
import type { AppConfigOverview } from "@/lib/app-config/universal/types";
import type { RunAction } from "@/lib/swr/use-app-config";
import { formatRemaining } from "./format";

/**
 * The app configuration token: what is kept (masked), the paste form, rotation and forgetting, and with an
 * emulator upstream (the embedded one or a standalone one: overview.emulator) its stand-in for the platform's
 * "Generate Token". Against the real platform the stand-in is not offered: its tokens come from its own page.
 */
export function ConfigTokenPanel({
  overview,
  busy,
  onAction,
  mayGenerate,
}: {
  overview: AppConfigOverview;
  busy: boolean;
  onAction: RunAction;
  /** An admin: the emulator's "Generate Token" is offered (a token for the whole app configuration). */
  mayGenerate: boolean;
}) {
  const [token, setToken] = useState("");
  const [refreshToken, setRefreshToken] = useState("");
  const now = useNow(1000);
  const skew = useServerSkew(overview);
  const kept = overview.configToken;
  const emulator = overview.emulator;

  async function paste(event: FormEvent) {
    event.preventDefault();
    if (await onAction({ kind: "paste-token", token: token.trim(), refreshToken: refreshToken.trim() })) {
      setToken("");
      setRefreshToken("");
    }
  }

  return (
    <Panel title="App configuration token" actions={kept ? <Badge tone="ok">kept, sealed</Badge> : <Badge tone="neutral">none</Badge>}>
      <div className="space-y-4 text-sm">
        {kept ? (
          <>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5">
              <dt className="text-slate-500">Token</dt>
              <dd className="break-all font-mono text-xs text-slate-900" data-testid="config-token">
                {kept.maskedToken}
              </dd>
              <dt className="text-slate-500">Refresh token</dt>
              <dd className="break-all font-mono text-xs text-slate-900">{kept.maskedRefreshToken}</dd>
              <dt className="text-slate-500">Expires</dt>
              <dd className="text-slate-900">{now === null ? "…" : `in ${formatRemaining(kept.expiresAt, now + skew)}`} · rotated before then</dd>
              {kept.userId && (
                <>
                  <dt className="text-slate-500">Belongs to</dt>
                  <dd className="font-mono text-xs text-slate-900">
                    {kept.userId} in {kept.teamId}
                  </dd>
                </>
              )}
            </dl>
            <div className="flex flex-wrap gap-2">
              <button type="button" className={BUTTON.secondary} disabled={busy} onClick={() => void onAction({ kind: "rotate-token" })}>
                Rotate now
              </button>
              <button type="button" className={BUTTON.danger} disabled={busy} onClick={() => void onAction({ kind: "forget-token" })}>
                Forget it
              </button>
            </div>
            <p className="text-xs text-slate-500">Forgetting only removes it from the console; it stays valid at the platform until it expires.</p>
          </>
        ) : (
          <p className="text-slate-600">
            {emulator === "embedded"
              ? "Without one, this page works through the embedded emulator's admin surface. With one, it uses the platform's own App Manifest API, exactly as against the real platform."
              : emulator === "standalone"
                ? "The upstream is a standalone emulator: as against the platform, app settings are read and changed with the App Manifest API, which needs an app configuration token. Generate one below, or paste one."
                : "Against the platform, app settings are read and changed with the App Manifest API, which needs an app configuration token."}
          </p>
        )}

        <form onSubmit={(e) => void paste(e)} className="space-y-2 border-t border-slate-100 pt-3">
          <p className="font-medium text-slate-800">{kept ? "Paste another pair" : "Paste a configuration token"}</p>
          <p className="text-xs text-slate-500">
            On the platform: your Your Apps page (api.slack.com/apps) → “Your App Configuration Tokens” → Generate Token, for the workspace the app belongs to.
            The console rotates the pair at once with <code>tooling.tokens.rotate</code>, so the refresh token you paste is spent: a pair can have only one
            holder.
          </p>
          <SecretField label="Access token" placeholder="xoxe.xoxp-1-…" value={token} onChange={setToken} />
          <SecretField label="Refresh token" placeholder="xoxe-1-…" value={refreshToken} onChange={setRefreshToken} />
          <button type="submit" className={BUTTON.primary} disabled={busy || !token.trim() || !refreshToken.trim()}>
            Keep this token
          </button>
        </form>

        {emulator !== null && mayGenerate && (
          <div className="space-y-2 border-t border-slate-100 pt-3">
            <button type="button" className={BUTTON.secondary} disabled={busy} onClick={() => void onAction({ kind: "generate-token" })}>
              Generate a configuration token (emulator)
            </button>
            <p className="text-xs text-slate-500">
              The emulator standing in for the platform&apos;s Your Apps page: the pair goes straight into the console&apos;s store, sealed, never onto the
              page.
            </p>
          </div>
        )}
      </div>
    </Panel>
  );
}

/** One half of a pasted pair: typed as a password (never shown, never autofilled or spell-checked). */
function SecretField({ label, placeholder, value, onChange }: { label: string; placeholder: string; value: string; onChange(value: string): void }) {
  return (
    <label className="block">
      <span className="text-xs font-medium text-slate-600">{label}</span>
      <input
        type="password"
        autoComplete="off"
        spellCheck={false}
        className={`${INPUT} font-mono`}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
