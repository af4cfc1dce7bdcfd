"use client";

import { useState, type ReactNode } from "react";
import { Badge, BUTTON, Panel } from "@/components/ui/primitives";
import { PlatformText } from "@/components/platform-text";
import type { AppInstallation, AppSettingsView, MigrationExchangeResult } from "@/lib/app-config/universal/types";
import type { RunAction } from "@/lib/swr/use-app-config";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { TurnOnRotation } from "./events-and-rotation";

type Outcomes = Record<string, MigrationExchangeResult>;
const outcomeKey = (installation: string, kind: string) => `${installation}:${kind}`;

function Step({ number, title, done, children }: { number: number; title: string; done: boolean | null; children: ReactNode }) {
  return (
    <li className="relative rounded-md border border-slate-200 p-3 sm:p-4" aria-label={`Step ${number}: ${title}`}>
      <div className="flex items-start gap-2">
        <span
          aria-hidden
          className={`grid h-6 w-6 shrink-0 place-items-center rounded-full text-xs font-semibold ${done ? "bg-emerald-700 text-white" : "bg-slate-200 text-slate-700"}`}
        >
          {number}
        </span>
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1 pt-0.5">
          <h3 className="font-semibold leading-snug text-slate-900">{title}</h3>
          {done !== null && <Badge tone={done ? "ok" : "neutral"}>{done ? "done" : "to do"}</Badge>}
        </div>
      </div>
      <div className="mt-2 space-y-2 text-sm text-slate-600">{children}</div>
    </li>
  );
}

function Outcome({ tone, children }: { tone: "ok" | "error" | "neutral"; children: ReactNode }) {
  const tones = {
    ok: "border-emerald-200 bg-emerald-50 text-emerald-950",
    error: "border-rose-200 bg-rose-50 text-rose-900",
    neutral: "border-slate-200 bg-slate-50 text-slate-700",
  };
  return <div className={`rounded-md border px-3 py-2 text-sm ${tones[tone]}`}>{children}</div>;
}

const installationLabel = (i: AppInstallation) => i.team.name || i.team.id;

/**
 * Moving an app with long-lived tokens to token rotation, one step after the other, each with its outcome:
 * rotation on, each long-lived token exchanged once, the originals never revoked, and auth.test confirming
 * the originals no longer work.
 */
export function MigrationGuide({ settings, busy, onAction, mayChange }: { settings: AppSettingsView; busy: boolean; onAction: RunAction; mayChange: boolean }) {
  const [outcomes, setOutcomes] = useState<Outcomes>({});
  const [confirming, setConfirming] = useState<{ installation: AppInstallation; kind: "bot" | "user"; masked: string } | null>(null);
  const longLived = settings.installations.flatMap((i) => i.tokens.filter((t) => !t.rotating).map((t) => ({ installation: i, token: t })));
  const exchangedHere = Object.values(outcomes);
  const recordedOriginals = settings.installations.flatMap((i) =>
    (i.emulatorTokens ?? []).filter((t) => t.state === "exchanged").map((t) => ({ installation: i, token: t })),
  );
  const nothingToMigrate = settings.tokenRotationEnabled && longLived.length === 0 && exchangedHere.length === 0 && recordedOriginals.length === 0;

  async function exchange() {
    if (!confirming) return;
    const result = await onAction({ kind: "exchange", appId: settings.appId, installation: confirming.installation.id, token: confirming.kind });
    if (result?.kind === "exchange") {
      setOutcomes((previous) => ({ ...previous, [outcomeKey(confirming.installation.id, confirming.kind)]: result.result }));
      setConfirming(null);
    }
  }

  const steps = (
    <ol className="space-y-3">
      <Step number={1} title="Turn token rotation on" done={settings.tokenRotationEnabled}>
        {settings.tokenRotationEnabled ? (
          <Outcome tone="ok">Token rotation is on for {settings.name} (settings.token_rotation_enabled: true). It cannot be turned off again.</Outcome>
        ) : (
          <>
            <p>Through the manifest: settings.token_rotation_enabled becomes true. Irreversible: you confirm first.</p>
            <TurnOnRotation settings={settings} busy={busy} onAction={onAction} mayChange={mayChange} />
          </>
        )}
      </Step>

      <Step number={2} title="Exchange each long-lived token, once" done={settings.installations.length > 0 ? longLived.length === 0 : null}>
        <p>
          <code>oauth.v2.exchange</code> turns each long-lived token into an expiring one (12 hours) with a refresh token. A token can be exchanged only once;
          the original stops working at once.
        </p>
        {settings.installations.length === 0 && (
          <Outcome tone="neutral">No installation of this app on this console that you see: install it to migrate its tokens here.</Outcome>
        )}
        <ul className="space-y-2">
          {settings.installations.flatMap((installation) =>
            installation.tokens.map((token) => {
              const outcome = outcomes[outcomeKey(installation.id, token.kind)];
              return (
                <li key={outcomeKey(installation.id, token.kind)} className="flex flex-wrap items-center gap-2" data-testid={`migrate-${token.kind}`}>
                  <span className="font-medium text-slate-800">
                    {token.kind === "bot" ? "Bot" : "User"} token · <PlatformText>{installationLabel(installation)}</PlatformText>
                  </span>
                  <code className="break-all text-xs">{token.masked}</code>
                  {token.rotating ? (
                    <Badge tone="ok">{outcome ? "exchanged: rotating" : "rotating"}</Badge>
                  ) : (
                    <>
                      <Badge tone="warn">long-lived</Badge>
                      <button
                        type="button"
                        className={BUTTON.secondary}
                        disabled={busy || !settings.tokenRotationEnabled}
                        onClick={() => setConfirming({ installation, kind: token.kind, masked: token.masked })}
                      >
                        Exchange {token.kind} token…
                      </button>
                    </>
                  )}
                  {outcome && (
                    <span className="basis-full text-xs text-slate-600">
                      {outcome.original.masked} → {outcome.replacement.masked}, refresh token {outcome.replacement.maskedRefreshToken}
                    </span>
                  )}
                </li>
              );
            }),
          )}
        </ul>
        {!settings.tokenRotationEnabled && longLived.length > 0 && (
          <p className="text-xs text-slate-500">Step 1 first: the platform refuses an exchange while rotation is off (token_rotation_not_enabled).</p>
        )}
      </Step>

      <Step number={3} title="Never revoke an original after the exchange" done={null}>
        <p>
          <code>auth.revoke</code> with an exchanged original does not revoke just that token: it revokes the whole installation, and the app must be installed
          again.
        </p>
        <Outcome tone="neutral">
          The console keeps no copy of an original once exchanged: nothing on this page, or elsewhere in the console, can revoke one. Remove the originals from
          wherever else you kept them.
        </Outcome>
        {recordedOriginals.length > 0 && (
          <Outcome tone="ok">
            The emulator records {recordedOriginals.map((o) => o.token.masked).join(", ")} as <code>exchanged</code>, not revoked.
          </Outcome>
        )}
      </Step>

      <Step
        number={4}
        title="Confirm with auth.test that the originals no longer work"
        done={exchangedHere.length > 0 ? exchangedHere.every((o) => !o.original.authTest.ok) : null}
      >
        <p>
          The console calls <code>auth.test</code> with each original right after exchanging it, while the original is still in that request&apos;s memory on
          the server, and then drops it.
        </p>
        {exchangedHere.map((o) => (
          <Outcome key={o.original.masked} tone={o.original.authTest.ok ? "error" : "ok"}>
            {o.original.authTest.ok ? (
              <>auth.test with the original {o.original.masked} still answered ok: it works. Do not revoke it; try auth.test again later.</>
            ) : (
              <>
                auth.test with the original {o.original.masked} answered <code>{o.original.authTest.error}</code>: it no longer works.
              </>
            )}{" "}
            The new {o.kind} token {o.replacement.masked} answered {o.replacement.authTest.ok ? "ok" : <code>{o.replacement.authTest.error}</code>}.
          </Outcome>
        ))}
        {exchangedHere.length === 0 && (
          <Outcome tone="neutral">
            {recordedOriginals.length > 0
              ? "The exchanges happened before this page was opened: the console kept no original to try again. The emulator's records above show their state."
              : "Nothing exchanged yet."}
          </Outcome>
        )}
      </Step>
    </ol>
  );

  return (
    <Panel title="Rotation migration guide">
      {nothingToMigrate ? (
        <details>
          <summary className="cursor-pointer text-sm text-slate-600">
            Nothing to migrate: rotation is on and this session holds no long-lived token of this app. Show the steps
          </summary>
          <div className="mt-3">{steps}</div>
        </details>
      ) : (
        steps
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={`Exchange the ${confirming?.kind ?? ""} token ${confirming?.masked ?? ""}?`}
        understanding="I understand the original stops working now and must never be revoked."
        confirmLabel="Exchange"
        tone="primary"
        busy={busy}
        onConfirm={() => void exchange()}
        onClose={() => setConfirming(null)}
      >
        <ul className="list-disc space-y-1 pl-5">
          <li>The original stops working as soon as it is exchanged, wherever else it is used.</li>
          <li>
            <strong>Never revoke the original afterwards:</strong> that revokes the whole installation.
          </li>
          <li>The new token expires in 12 hours; the console refreshes it before then.</li>
        </ul>
      </ConfirmDialog>
    </Panel>
  );
}
