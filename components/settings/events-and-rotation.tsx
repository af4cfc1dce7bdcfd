"use client";

import { useState } from "react";
import { Badge, BUTTON, Panel } from "@/components/ui/primitives";
import { LocalTime } from "@/components/local-time";
import { PlatformText } from "@/components/platform-text";
import type { AppSettingsView, RequestUrlVerification } from "@/lib/app-config/universal/types";
import type { RunAction } from "@/lib/swr/use-app-config";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { AdminOnlyNote } from "./admin-only-note";
import { EventDelivery } from "./event-delivery";

const FAILURES: Record<string, string> = {
  http_error: "it answered with an error status",
  challenge_mismatch: "it answered 200 without the challenge",
  http_timeout: "it did not answer within 3 seconds",
  connection_failed: "it could not be reached",
};

function VerificationState({ verification }: { verification: RequestUrlVerification | null | undefined }) {
  if (verification === undefined) {
    return (
      <>
        <Badge tone="neutral">not reported</Badge>
        <p className="mt-1 text-xs text-slate-500">
          The App Manifest API does not report it. The platform sends a url_verification challenge whenever the request URL is set or changed; to send another,
          use Retry beside the Request URL on the app&apos;s Event Subscriptions page.
        </p>
      </>
    );
  }
  if (verification === null) return <span className="text-slate-500">nothing to verify</span>;
  const tone = verification.state === "verified" ? "ok" : verification.state === "failed" ? "error" : "warn";
  const why = verification.failure ? (FAILURES[verification.failure] ?? verification.failure) : null;
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-testid="verification">
      <Badge tone={tone}>{verification.state}</Badge>
      <span className="text-xs text-slate-500">
        <LocalTime at={Date.parse(verification.at)} date="always" />
        {verification.durationMs !== null && ` · ${verification.durationMs} ms`}
        {verification.status !== null && ` · HTTP ${verification.status}`}
        {why && ` · ${why}`}
      </span>
    </span>
  );
}

/** The event request URL and its url_verification, as the platform's Event Subscriptions page shows them. */
type PanelProps = {
  settings: AppSettingsView;
  busy: boolean;
  onAction: RunAction;
  /** An admin: what changes the app (a fresh challenge, rotation) is offered. */
  mayChange: boolean;
};

export function EventSubscriptions({ settings, busy, onAction, mayChange }: PanelProps) {
  const { events } = settings;
  return (
    <Panel
      title="Event subscriptions"
      actions={
        events.canVerify &&
        mayChange && (
          <button type="button" className={BUTTON.secondary} disabled={busy} onClick={() => void onAction({ kind: "verify", appId: settings.appId })}>
            Verify again
          </button>
        )
      }
    >
      <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
        <dt className="text-slate-500">Request URL</dt>
        <dd className="break-all font-mono text-xs text-slate-900">
          {events.requestUrl ? <PlatformText>{events.requestUrl}</PlatformText> : <span className="font-sans text-slate-500">none: events go nowhere</span>}
        </dd>
        <dt className="text-slate-500">Verification</dt>
        <dd>{events.requestUrl ? <VerificationState verification={events.verification} /> : <span className="text-slate-500">—</span>}</dd>
        <dt className="text-slate-500">Delivery</dt>
        <dd>
          <EventDelivery settings={settings} busy={busy} onAction={onAction} mayChange={mayChange} />
        </dd>
        <dt className="text-slate-500">Bot events</dt>
        <dd className="font-mono text-xs text-slate-900">{events.botEvents.join(", ") || <span className="font-sans text-slate-500">none</span>}</dd>
        {events.userEvents.length > 0 && (
          <>
            <dt className="text-slate-500">User events</dt>
            <dd className="font-mono text-xs text-slate-900">{events.userEvents.join(", ")}</dd>
          </>
        )}
      </dl>
    </Panel>
  );
}

/** What turning rotation on means: said beside the setting and again in the confirmation. */
export function RotationConsequences() {
  return (
    <ul className="list-disc space-y-1 pl-5">
      <li>
        Access tokens then expire <strong>12 hours</strong> after they are issued, and come with a single-use refresh token.
      </li>
      <li>
        Every token issued from then on, and every long-lived token migrated with <code>oauth.v2.exchange</code>, must be refreshed within 12 hours, or calls
        with it fail with <code>token_expired</code>.
      </li>
      <li>
        <strong>It cannot be turned off again.</strong> Long-lived tokens issued before keep working until each is exchanged.
      </li>
    </ul>
  );
}

/** The "turn rotation on" button and its confirmation, used by the settings panel and the migration guide. */
export function TurnOnRotation({ settings, busy, onAction, mayChange }: PanelProps) {
  const [open, setOpen] = useState(false);
  if (!mayChange) return <AdminOnlyNote>Only an admin turns token rotation on: it changes the app for every workspace it is installed in.</AdminOnlyNote>;
  return (
    <>
      <button type="button" className={BUTTON.primary} disabled={busy} onClick={() => setOpen(true)}>
        Turn on token rotation…
      </button>
      <ConfirmDialog
        open={open}
        title={`Turn on token rotation for ${settings.name}?`}
        understanding="I understand that token rotation cannot be turned off again."
        confirmLabel="Turn rotation on for good"
        tone="primary"
        busy={busy}
        onConfirm={() => void onAction({ kind: "rotation", appId: settings.appId }).then((done) => done && setOpen(false))}
        onClose={() => setOpen(false)}
      >
        <RotationConsequences />
      </ConfirmDialog>
    </>
  );
}

export function TokenRotation({ settings, busy, onAction, mayChange }: PanelProps) {
  return (
    <Panel title="Token rotation" actions={settings.tokenRotationEnabled ? <Badge tone="ok">on</Badge> : <Badge tone="warn">off</Badge>}>
      <div className="space-y-3 text-sm text-slate-600">
        <p>
          {settings.tokenRotationEnabled
            ? "On, for good: this app's access tokens expire after 12 hours and are refreshed with single-use refresh tokens."
            : "Off: this app's tokens are long-lived. Turning it on:"}
        </p>
        {!settings.tokenRotationEnabled && (
          <>
            <RotationConsequences />
            <TurnOnRotation settings={settings} busy={busy} onAction={onAction} mayChange={mayChange} />
          </>
        )}
      </div>
    </Panel>
  );
}
