"use client";

import { useState } from "react";
import { useServerSkew } from "@/components/use-now";
import { PlatformText } from "@/components/platform-text";
import { sessionKey, SessionKeyContext, useSession } from "@/lib/swr/use-session";
import { InstallationCard } from "./installation-card";
import { InstallationListControls, useListQuery } from "./installation-list-controls";
import { PasteTokenPanel } from "./paste-token-panel";
import { PlatformClockControl } from "./platform-clock-control";
import type { RefresherView } from "@/lib/installations/universal/refresh-schedule";

/** The console's home: the installations on the server (a page at a time, searched on the server), "Add to workspace", and token exchange. */
export function InstallationsConsole({ emulator, installedId }: { emulator: boolean; installedId: string | null }) {
  const list = useListQuery();
  const { data, error, isLoading } = useSession(list.query);
  // Countdowns follow the platform's time (serverTime: the server's clock plus the upstream's skew), the
  // clock that decides expiry and refreshes; a session with a moved clock moves every countdown at once.
  const skewMs = useServerSkew(data);
  const installations = data?.installations ?? [];
  const ownWorkspaceOnly = data !== undefined && data.access.signedIn && !data.access.admin;
  // A forgotten installation's card (and timeline) is gone: what happened is said here instead.
  const [forgotten, setForgotten] = useState<string[]>([]);

  return (
    <SessionKeyContext.Provider value={sessionKey(list.query)}>
      <div className="space-y-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-xl font-semibold tracking-tight text-slate-900">Installations</h1>
            <p className="mt-1 text-sm text-slate-600">Tokens live on the server, sealed in its store; you only ever see them masked.</p>
            {data && <RefresherStatus refresher={data.refresher} />}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {emulator && (
              <a
                href="/oauth/install?app=legacy"
                className="rounded-md bg-white px-3 py-2 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
              >
                Install the legacy app
              </a>
            )}
            <a
              href="/oauth/install"
              className="inline-flex items-center gap-2 rounded-md bg-emerald-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-emerald-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
            >
              <svg aria-hidden viewBox="0 0 16 16" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
                <path d="M8 3v10M3 8h10" strokeLinecap="round" />
              </svg>
              Add to workspace
            </a>
          </div>
        </div>

        {error && (
          <p role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-800">
            {error.message}
          </p>
        )}
        {isLoading && <p className="text-sm text-slate-600">Loading installations…</p>}
        {data?.platformClock.emulator && data.access.admin && <PlatformClockControl skewMs={skewMs} offsetS={data.platformClock.offsetS} />}
        <div role="status">
          {forgotten.length > 0 && (
            <ul className="space-y-1 rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700">
              {forgotten.map((name, i) => (
                <li key={`${name}-${i}`}>
                  Forgot <PlatformText>{name}</PlatformText> on this console, with its timeline. Nothing changed on the platform.
                </li>
              ))}
            </ul>
          )}
        </div>

        {data && data.page.total > 0 && <InstallationListControls list={list} page={data.page} shown={installations.length} />}
        {data && installedId && !installations.some((i) => i.id === installedId) && data.page.matched > installations.length && (
          <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
            Installed: it is on another page of the list.{" "}
            <button type="button" className="font-medium underline" onClick={() => list.setText(installedId)}>
              Show it
            </button>
          </p>
        )}

        {data && data.page.total === 0 && (
          <section className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
            {/* A member sees their own workspace's installations only: there may be others, in other workspaces. */}
            <h2 className="text-base font-semibold text-slate-900">{ownWorkspaceOnly ? "None in your workspace yet" : "No installations yet"}</h2>
            <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">
              {ownWorkspaceOnly && "You see the installations of the workspace you signed in to. "}
              Use <strong>Add to workspace</strong> to install the app through {emulator ? "the emulator's" : "the platform's"} consent page. The tokens it
              issues stay on the server.
            </p>
          </section>
        )}

        <div className="space-y-4">
          {installations.map((installation) => (
            <InstallationCard
              key={installation.id}
              installation={installation}
              skewMs={skewMs}
              refreshWindowS={data?.refreshWindowS ?? 0}
              highlighted={installation.id === installedId}
              canManage={data?.access.manageable.includes(installation.id) ?? false}
              viewerId={data?.access.userId ?? null}
              refresher={data?.refresher ?? null}
              onForgotten={(name) => setForgotten((previous) => [...previous, name].slice(-3))}
            />
          ))}
        </div>

        {data?.access.admin && <PasteTokenPanel emulator={emulator} />}
      </div>
    </SessionKeyContext.Provider>
  );
}

/** The background refresher's health on this instance, and what it keeps: every rotating token alive with nobody watching. */
function RefresherStatus({ refresher }: { refresher: RefresherView }) {
  const hours = (s: number) => (s % 3600 === 0 ? `${s / 3600} h` : `${Math.round(s / 60)} min`);
  if (!refresher.enabled) {
    return (
      <p className="mt-1 text-xs text-slate-600" data-testid="refresher-status">
        Background refresh is off (BACKGROUND_REFRESH=false): rotating tokens are refreshed when they are used.
      </p>
    );
  }
  const health = refresher.health;
  const tone = health?.state === "failing" ? "text-rose-800" : "text-slate-600";
  return (
    <p className={`mt-1 text-xs ${tone}`} data-testid="refresher-status">
      Background refresh: <span className="font-medium">{health?.state === "failing" ? "failing" : health?.state === "healthy" ? "healthy" : "starting"}</span>
      {health?.lastError ? ` (${health.lastError})` : ""} · every rotating token {hours(refresher.horizonS)} before it expires, checked every{" "}
      {refresher.intervalS} s
      {health && (health.refreshed > 0 || health.failed > 0 || health.needsReinstall > 0)
        ? ` · ${health.refreshed} refreshed, ${health.failed} failed${health.backingOff > 0 ? ` (${health.backingOff} retrying)` : ""}, ${health.needsReinstall} needing a reinstall since this instance started`
        : ""}
    </p>
  );
}
