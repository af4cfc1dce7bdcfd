"use client";

import { useState, type FormEvent } from "react";
import { Badge, BUTTON, INPUT, Panel } from "@/components/ui/primitives";
import { LocalTime } from "@/components/local-time";
import { PlatformText } from "@/components/platform-text";
import { APP_TOKEN_SCOPES, DISCONNECT_REASONS, type DisconnectReason, type SocketModeView } from "@/lib/app-config/universal/socket-mode";
import { useSocketMode, useSocketModeAction, type SocketModeAction } from "@/lib/swr/use-socket-mode";
import { AdminOnlyNote } from "./admin-only-note";

type AvailableView = Extract<SocketModeView, { available: true }>;

/**
 * App-level tokens, the Socket Mode switch and the open connections, as the platform's "Basic Information"
 * and "Socket Mode" pages show them: through the emulator's admin surface only. A generated token is shown
 * in this component's memory once, then masked like every other.
 */
export function SocketModePanel({ appId, mayChange }: { appId: string; mayChange: boolean }) {
  const view = useSocketMode(appId);
  const action = useSocketModeAction(appId);
  const [generated, setGenerated] = useState<{ name: string; token: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(next: SocketModeAction): Promise<boolean> {
    setError(null);
    try {
      const outcome = await action.trigger(next);
      if (outcome.generated) setGenerated(outcome.generated);
      return true;
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return false;
    }
  }

  if (view.error) {
    return (
      <Panel title="Socket Mode and app-level tokens">
        <p role="alert" className="text-sm text-rose-800">
          {view.error.message}
        </p>
      </Panel>
    );
  }
  if (!view.data) return null;
  if (!view.data.available) return <OnThePlatform />;
  const data = view.data;
  const busy = action.isMutating;

  return (
    <>
      <Panel
        title="Socket Mode"
        actions={
          mayChange && (
            <button
              type="button"
              role="switch"
              aria-checked={data.socketModeEnabled}
              className={data.socketModeEnabled ? BUTTON.secondary : BUTTON.primary}
              disabled={busy}
              onClick={() => void run({ kind: "switch", enabled: !data.socketModeEnabled })}
            >
              {data.socketModeEnabled ? "Turn Socket Mode off" : "Turn Socket Mode on"}
            </button>
          )
        }
      >
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700" data-testid="socket-mode-state">
          {data.socketModeEnabled ? <Badge tone="ok">Socket Mode</Badge> : <Badge tone="neutral">HTTP</Badge>}
          <span>
            {data.socketModeEnabled
              ? "Events and interactions go to the app's WebSocket connections (apps.connections.open with an app-level token), never to its request URLs."
              : "Events and interactions are sent to the app's request URLs over HTTP, signed with its signing secret."}
          </span>
        </p>
        <Connections data={data} busy={busy} mayChange={mayChange} onAction={run} />
        {!mayChange && <AdminOnlyNote>An admin switches Socket Mode and disconnects connections.</AdminOnlyNote>}
      </Panel>
      <Panel title="App-level tokens">
        <AppTokens data={data} busy={busy} mayChange={mayChange} onAction={run} generated={generated} onDismiss={() => setGenerated(null)} />
      </Panel>
      {error && (
        <p role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-800">
          {error}
        </p>
      )}
    </>
  );
}

/** Against the platform: where a person makes these, since its API has no method for them. */
function OnThePlatform() {
  return (
    <Panel title="Socket Mode and app-level tokens">
      <p className="text-sm text-slate-600" data-testid="socket-mode-on-platform">
        The platform has no API for app-level tokens or for its Socket Mode switch. Make an app-level token (with <code>connections:write</code>) on your
        app&apos;s Basic Information page at api.slack.com/apps, under “App-Level Tokens”, and turn Socket Mode on from the app&apos;s Socket Mode page. Against
        the emulator, this panel does both.
      </p>
    </Panel>
  );
}

type PartProps = { data: AvailableView; busy: boolean; mayChange: boolean; onAction: (action: SocketModeAction) => Promise<boolean> };

function Connections({ data, busy, mayChange, onAction }: PartProps) {
  const [reason, setReason] = useState<DisconnectReason>("refresh_requested");
  const open = data.connections;
  return (
    <div className="mt-4 space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-medium text-slate-800" data-testid="connection-count">
          {open.length === 0 ? "No open connections" : `${open.length} open connection${open.length === 1 ? "" : "s"}`}
          <span className="font-normal text-slate-500"> (at most 10)</span>
        </h3>
        {mayChange && open.length > 0 && (
          <label className="flex items-center gap-2 whitespace-nowrap text-xs text-slate-600">
            Disconnect reason
            <select value={reason} onChange={(e) => setReason(e.target.value as DisconnectReason)} className={`${INPUT} w-auto py-1 text-xs`}>
              {DISCONNECT_REASONS.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {open.length > 0 && (
        <ul aria-label="Open connections" className="divide-y divide-slate-100 rounded-md border border-slate-200">
          {open.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 text-xs text-slate-600">
              <span className="font-mono text-slate-900">
                <PlatformText>{c.id}</PlatformText>
              </span>
              <span>
                connected <LocalTime at={Date.parse(c.openedAt)} date="always" />
              </span>
              <span>
                {c.envelopesSent} envelope{c.envelopesSent === 1 ? "" : "s"} sent · {c.awaitingAck} awaiting ack
              </span>
              {c.disconnectSent && <Badge tone="warn">disconnect sent</Badge>}
              {mayChange && (
                <button
                  type="button"
                  className={`${BUTTON.secondary} ml-auto py-1 text-xs`}
                  disabled={busy || c.disconnectSent}
                  aria-label={`Disconnect ${c.id}`}
                  onClick={() => void onAction({ kind: "disconnect", reason, connectionId: c.id })}
                >
                  Disconnect
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="text-xs text-slate-500">
        “Disconnect” sends the platform&apos;s <code>disconnect</code> message with the reason chosen: a well-behaved client opens a new connection
        (refresh_requested, warning) or stops (link_disabled).
      </p>
    </div>
  );
}

function AppTokens({
  data,
  busy,
  mayChange,
  onAction,
  generated,
  onDismiss,
}: PartProps & { generated: { name: string; token: string } | null; onDismiss: () => void }) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["connections:write"]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await onAction({ kind: "generate", name: name.trim(), scopes })) setName("");
  }

  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        An app-level token (<code>xapp-…</code>) acts for the app across every workspace: with <code>connections:write</code> it opens Socket Mode connections
        (apps.connections.open). It is shown once, when generated; the list shows it masked.
      </p>
      {generated && (
        <div className="space-y-1 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-950" role="status">
          <p>
            Token{" "}
            <strong>
              <PlatformText>{generated.name}</PlatformText>
            </strong>{" "}
            generated. Copy it now: it is not shown again.
          </p>
          <code data-testid="new-app-token" className="block select-all break-all rounded bg-white px-2 py-1 font-mono text-xs text-slate-900">
            {generated.token}
          </code>
          <button type="button" className="text-xs font-medium underline" onClick={onDismiss}>
            Done
          </button>
        </div>
      )}
      {data.tokens.length === 0 ? (
        <p className="text-sm text-slate-500">No app-level tokens yet.</p>
      ) : (
        <ul aria-label="App-level tokens" className="divide-y divide-slate-100 rounded-md border border-slate-200">
          {data.tokens.map((t) => (
            <li key={t.name} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 text-xs text-slate-600">
              <span className="font-medium text-slate-900">
                <PlatformText>{t.name}</PlatformText>
              </span>
              <span className="font-mono text-slate-900" data-testid="app-token-masked">
                {t.masked}
              </span>
              <span className="font-mono">{t.scopes.join(", ")}</span>
              <span>
                made <LocalTime at={Date.parse(t.createdAt)} date="always" />
              </span>
              {t.revokedAt ? (
                <Badge tone="error">revoked</Badge>
              ) : (
                mayChange && (
                  <button
                    type="button"
                    className={`${BUTTON.danger} ml-auto py-1 text-xs`}
                    disabled={busy}
                    aria-label={`Revoke ${t.name}`}
                    onClick={() => void onAction({ kind: "revoke", name: t.name })}
                  >
                    Revoke
                  </button>
                )
              )}
            </li>
          ))}
        </ul>
      )}
      {mayChange ? (
        <form onSubmit={submit} className="space-y-2" aria-label="Generate an app-level token">
          <label className="block text-xs font-medium text-slate-700">
            Token name
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required placeholder="e.g. socket-mode" className={`${INPUT} mt-1`} />
          </label>
          <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
            <legend className="mb-1 font-medium">Scopes</legend>
            {APP_TOKEN_SCOPES.map((scope) => (
              <label key={scope} className="flex items-center gap-1.5 font-mono">
                <input
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  onChange={(e) => setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
                />
                {scope}
              </label>
            ))}
          </fieldset>
          <button type="submit" className={BUTTON.primary} disabled={busy || name.trim() === "" || scopes.length === 0}>
            Generate token
          </button>
        </form>
      ) : (
        <AdminOnlyNote>An admin generates and revokes app-level tokens.</AdminOnlyNote>
      )}
    </div>
  );
}
