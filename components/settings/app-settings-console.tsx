"use client";

import { useEffect, useState } from "react";
import { Badge } from "@/components/ui/primitives";
import { PlatformText } from "@/components/platform-text";
import type { AppConfigOverview } from "@/lib/app-config/universal/types";
import { useAppConfigAction, useAppConfigOverview, useAppSettings, type AppConfigActionResult, type RunAction } from "@/lib/swr/use-app-config";
import { useMe } from "@/lib/swr/use-me";
import { AppPicker } from "./app-picker";
import { BasicInformation } from "./basic-information";
import { ConfigTokenPanel } from "./config-token-panel";
import { EventSubscriptions, TokenRotation } from "./events-and-rotation";
import { ManifestPanel } from "./manifest-panel";
import { MigrationGuide } from "./migration-guide";
import { OAuthAndPermissions } from "./scopes-editor";
import { SocketModePanel } from "./socket-mode-panel";

type Notice = { tone: "ok" | "error"; text: string };

function describe(outcome: AppConfigActionResult): string {
  switch (outcome.kind) {
    case "scopes":
      return outcome.result.permissionsUpdated ? "Scopes saved in the manifest: reinstall to get them." : "Saved: the scopes did not change.";
    case "rotation":
      return `Token rotation is on for ${outcome.result.settings.name}, for good.`;
    case "verify":
      return `The request URL's verification: ${outcome.result.events.verification?.state ?? "not reported"}.`;
    case "enable-events":
      return outcome.result.events.disabled ? "Event delivery is still disabled." : `Event delivery is on again for ${outcome.result.name}.`;
    case "exchange":
      return `The ${outcome.result.kind} token was exchanged; auth.test with the original answered ${outcome.result.original.authTest.error ?? "ok"}.`;
    case "token":
      return outcome.result.configToken ? `Configuration token kept: ${outcome.result.configToken.maskedToken}.` : "Configuration token forgotten.";
  }
}

function BackendLine({ overview }: { overview: AppConfigOverview }) {
  if (overview.backend === "emulator-admin") {
    return (
      <p className="flex flex-wrap items-center gap-2">
        <Badge tone="neutral">emulator admin surface</Badge>
        <span>
          Read and changed through the embedded emulator&apos;s admin surface, from the server. Keep a configuration token to use the platform&apos;s App
          Manifest API instead.
        </span>
      </p>
    );
  }
  if (overview.backend === "manifest-api") {
    return (
      <p className="flex flex-wrap items-center gap-2">
        <Badge tone="ok">App Manifest API</Badge>
        <span>
          Read with <code>apps.manifest.export</code>, changed with <code>apps.manifest.validate</code> and <code>apps.manifest.update</code>, with your
          configuration token: the calls the real platform answers.
        </span>
      </p>
    );
  }
  return (
    <p className="flex flex-wrap items-center gap-2">
      <Badge tone="warn">configuration token needed</Badge>
      <span>
        {overview.emulator === "standalone"
          ? "Against a standalone emulator, as against the platform, app settings are read and changed with an app configuration token: generate or paste one."
          : "Against the platform, app settings are read and changed with an app configuration token: paste one below."}
      </span>
    </p>
  );
}

/** The app settings page: one app's configuration, as the platform's own app settings pages show it. */
export function AppSettingsConsole({ initialAppId }: { initialAppId: string | null }) {
  const overview = useAppConfigOverview();
  const [chosen, setChosen] = useState<string | null>(initialAppId);
  const appId = chosen ?? overview.data?.defaultAppId ?? null;
  const settings = useAppSettings(overview.data?.backend ? appId : null);
  const action = useAppConfigAction();
  // What only an admin may do is offered once /api/me says this person is one (the server refuses it otherwise).
  const me = useMe().data;
  const mayChange = me?.admin ?? false;
  const [notice, setNotice] = useState<Notice | null>(null);
  const [scopesSavedFor, setScopesSavedFor] = useState<string | null>(null);

  const run: RunAction = async (arg) => {
    setNotice(null);
    try {
      const outcome = await action.trigger(arg);
      setNotice({ tone: "ok", text: describe(outcome) });
      if (outcome.kind === "scopes") setScopesSavedFor(outcome.result.settings.appId);
      return outcome;
    } catch (error) {
      setNotice({ tone: "error", text: error instanceof Error ? error.message : String(error) });
      return null;
    }
  };

  function choose(next: string) {
    setChosen(next);
    setNotice(null);
    const url = new URL(window.location.href);
    url.searchParams.set("app", next);
    window.history.replaceState(null, "", url);
  }

  // A kept configuration token the server had to drop (refused by the platform, or unreadable): show that it is gone.
  const droppedToken = settings.error?.code === "config_token_refused" || settings.error?.code === "config_token_unreadable";
  const reloadOverview = overview.mutate;
  useEffect(() => {
    if (droppedToken) void reloadOverview();
  }, [droppedToken, reloadOverview]);

  // A success fades after a while; an error stays until dismissed.
  useEffect(() => {
    if (notice?.tone !== "ok") return;
    const timer = setTimeout(() => setNotice(null), 8000);
    return () => clearTimeout(timer);
  }, [notice]);

  const data = overview.data;
  const app = settings.data;
  const busy = action.isMutating;

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-xl font-semibold tracking-tight text-slate-900">App settings</h1>
        <p className="max-w-3xl text-sm text-slate-600">
          Your app&apos;s credentials, redirect URLs, scopes, event subscriptions, token rotation and manifest. Secrets and tokens stay on the server: you only
          ever see them masked.
        </p>
        {data && (
          <div className="text-sm text-slate-600">
            <BackendLine overview={data} />
          </div>
        )}
        {me && !me.admin && (
          <p className="max-w-3xl text-sm text-slate-600" data-testid="member-rights">
            You read the settings of the apps installed in your workspace; an admin changes them, since an app is shared by every workspace it is installed in.
            You may keep a configuration token of your own.
          </p>
        )}
      </header>

      {overview.error && (
        <p role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-800">
          {overview.error.message}
        </p>
      )}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-6">
          {data && data.backend && <AppPicker apps={data.apps} value={appId} onChange={choose} />}
          {data && !data.backend && (
            <section className="rounded-lg border border-dashed border-slate-300 bg-white px-5 py-6 text-sm text-slate-600">
              <h2 className="text-base font-semibold text-slate-900">Paste an app configuration token to begin</h2>
              <p className="mt-1">
                The platform&apos;s App Manifest API reads and changes an app&apos;s configuration with an app configuration token, which you generate on your
                Your Apps page (api.slack.com/apps) under “Your App Configuration Tokens”, for the workspace the app belongs to. It lives 12 hours; the console
                rotates it with its refresh token before then.
              </p>
            </section>
          )}
          {data?.backend && !appId && <p className="text-sm text-slate-600">Choose an app, or type its ID (Basic Information on the platform).</p>}
          {settings.error && (
            <p role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-800">
              {settings.error.message}
            </p>
          )}
          {settings.isLoading && <p className="text-sm text-slate-500">Loading the app&apos;s settings…</p>}
          {app && (
            <>
              <h2 className="text-lg font-semibold text-slate-900">
                <PlatformText>{app.name}</PlatformText> <span className="font-mono text-sm font-normal text-slate-500">{app.appId}</span>
              </h2>
              <BasicInformation settings={app} />
              <SocketModePanel key={`socket:${app.appId}`} appId={app.appId} mayChange={mayChange} />
              <OAuthAndPermissions
                key={`${app.appId}:${app.scopes.bot.join()}:${app.scopes.user.join()}`}
                settings={app}
                busy={busy}
                onAction={run}
                reinstallOffered={scopesSavedFor === app.appId}
                mayChange={mayChange}
              />
              <EventSubscriptions settings={app} busy={busy} onAction={run} mayChange={mayChange} />
              <TokenRotation settings={app} busy={busy} onAction={run} mayChange={mayChange} />
              <MigrationGuide key={app.appId} settings={app} busy={busy} onAction={run} mayChange={mayChange} />
              <ManifestPanel settings={app} />
            </>
          )}
        </div>
        <aside className={`min-w-0 space-y-6 ${data && !data.backend ? "order-first lg:order-none" : ""}`}>
          {data && <ConfigTokenPanel overview={data} busy={busy} onAction={run} mayGenerate={mayChange} />}
        </aside>
      </div>

      {notice && (
        <div
          role={notice.tone === "error" ? "alert" : "status"}
          className={`fixed inset-x-4 bottom-4 z-10 mx-auto flex max-w-xl items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${notice.tone === "error" ? "border-rose-200 bg-rose-50 text-rose-900" : "border-emerald-200 bg-emerald-50 text-emerald-950"}`}
        >
          <p className="min-w-0 flex-1">{notice.text}</p>
          <button type="button" className="shrink-0 text-xs font-medium underline" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
