"use client";

import { useId, useState, type FormEvent } from "react";
import { BUTTON, INPUT, Panel } from "@/components/ui/primitives";
import { PlatformText } from "@/components/platform-text";
import { ScopeName } from "@/components/scope-name";
import { parseScopeList, scopeProblems } from "@/lib/app-config/universal/manifest";
import type { AppSettingsView } from "@/lib/app-config/universal/types";
import type { RunAction } from "@/lib/swr/use-app-config";
import { AdminOnlyNote } from "./admin-only-note";

type Kind = "bot" | "user";

function ScopeList({
  kind,
  saved,
  draft,
  onChange,
}: {
  kind: Kind;
  saved: string[];
  draft: string[];
  /** Absent: the list is read only (a member: only an admin changes an app's scopes). */
  onChange?: (next: string[]) => void;
}) {
  const [adding, setAdding] = useState("");
  const [problems, setProblems] = useState<string[]>([]);
  const inputId = useId();
  const problemId = `${inputId}-problem`;
  const label = kind === "bot" ? "Bot token scopes" : "User token scopes";
  const removed = saved.filter((s) => !draft.includes(s));

  // What the platform would refuse (invalid_scope) stays in the field with the reason; the rest is added.
  function add(event: FormEvent) {
    event.preventDefault();
    const typed = parseScopeList(adding).filter((s) => !draft.includes(s));
    const refused = typed.filter((s) => scopeProblems(kind, [s], saved).length > 0);
    const more = typed.filter((s) => !refused.includes(s));
    if (more.length > 0) onChange?.([...draft, ...more]);
    setProblems(scopeProblems(kind, refused, saved));
    setAdding(refused.join(" "));
  }

  return (
    <div className="space-y-2">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</h3>
      <ul aria-label={label} className="flex flex-wrap gap-1.5">
        {draft.map((scope) => {
          const added = !saved.includes(scope);
          return (
            <li
              key={scope}
              className={`inline-flex max-w-full items-center gap-1 rounded-md py-0.5 pl-2 pr-1 font-mono text-xs ring-1 ring-inset ${added ? "bg-emerald-50 text-emerald-800 ring-emerald-600/30" : "bg-slate-50 text-slate-800 ring-slate-300"}`}
            >
              <ScopeName name={scope} />
              {added && <span className="sr-only"> (added)</span>}
              {onChange && (
                <button
                  type="button"
                  aria-label={`Remove ${scope}`}
                  onClick={() => onChange(draft.filter((s) => s !== scope))}
                  className="grid h-5 w-5 place-items-center rounded text-slate-500 hover:bg-slate-200 hover:text-slate-900"
                >
                  <span aria-hidden>×</span>
                </button>
              )}
            </li>
          );
        })}
        {removed.map((scope) => (
          <li
            key={`removed-${scope}`}
            className="inline-flex max-w-full items-center rounded-md bg-rose-50 px-2 py-0.5 font-mono text-xs text-rose-700 line-through ring-1 ring-inset ring-rose-600/20"
          >
            <ScopeName name={scope} />
            <span className="sr-only"> (removed)</span>
          </li>
        ))}
        {draft.length === 0 && removed.length === 0 && <li className="text-xs text-slate-500">none</li>}
      </ul>
      {onChange && (
        <form onSubmit={add} className="flex items-start gap-2">
          <label htmlFor={inputId} className="sr-only">
            Add a {kind} scope
          </label>
          <input
            id={inputId}
            className={`${INPUT} min-w-0 max-w-xs font-mono ${problems.length > 0 ? "border-rose-500 focus:border-rose-600 focus:ring-rose-500/30" : ""}`}
            placeholder={kind === "bot" ? "reactions:read" : "search:read"}
            value={adding}
            onChange={(e) => {
              setAdding(e.target.value);
              setProblems([]);
            }}
            aria-invalid={problems.length > 0}
            aria-describedby={problems.length > 0 ? problemId : undefined}
            spellCheck={false}
            autoCapitalize="off"
          />
          <button type="submit" className={`${BUTTON.secondary} shrink-0`} disabled={!adding.trim()}>
            Add<span className="sr-only"> {kind} scope</span>
          </button>
        </form>
      )}
      {problems.length > 0 && (
        <div id={problemId} role="alert" className="space-y-0.5 text-xs text-rose-800">
          {problems.map((problem) => (
            <p key={problem} className="break-words">
              {problem} Not added: the platform would refuse it (invalid_scope).
            </p>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * Redirect URLs and scopes, as the platform's OAuth & Permissions page. Saving updates the manifest; an
 * installation only gets new scopes through a new install, so the answer leads to a reinstall. Keyed by
 * the saved scopes where it is used, so the draft starts again from what the manifest now says.
 */
export function OAuthAndPermissions({
  settings,
  busy,
  onAction,
  reinstallOffered,
  mayChange,
}: {
  settings: AppSettingsView;
  busy: boolean;
  onAction: RunAction;
  /** An admin: the scopes can be edited and saved. */
  mayChange: boolean;
  /** Set once scopes were saved on this page: the reinstall links lead the way. */
  reinstallOffered: boolean;
}) {
  const [bot, setBot] = useState(settings.scopes.bot);
  const [user, setUser] = useState(settings.scopes.user);
  const changed = bot.join() !== settings.scopes.bot.join() || user.join() !== settings.scopes.user.join();

  return (
    <Panel title="OAuth & permissions">
      <div className="space-y-5 text-sm">
        <div className="space-y-1.5">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Redirect URLs</h3>
          {settings.redirectUrls.length === 0 ? (
            <p className="text-slate-500">none</p>
          ) : (
            <ul className="space-y-1">
              {settings.redirectUrls.map((url) => (
                <li key={url} className="break-all font-mono text-xs text-slate-800">
                  <PlatformText>{url}</PlatformText>
                </li>
              ))}
            </ul>
          )}
        </div>
        <ScopeList kind="bot" saved={settings.scopes.bot} draft={bot} {...(mayChange ? { onChange: setBot } : {})} />
        <ScopeList kind="user" saved={settings.scopes.user} draft={user} {...(mayChange ? { onChange: setUser } : {})} />
        {!mayChange && (
          <AdminOnlyNote>
            Only an admin changes an app&apos;s scopes: they are every workspace&apos;s it is installed in. To get more scopes for your installation, ask an
            admin.
          </AdminOnlyNote>
        )}
        {mayChange && (
          <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-3">
            <button
              type="button"
              className={BUTTON.primary}
              disabled={!changed || busy}
              onClick={() => void onAction({ kind: "scopes", appId: settings.appId, bot, user })}
            >
              Save scopes
            </button>
            <button
              type="button"
              className={BUTTON.ghost}
              disabled={!changed || busy}
              onClick={() => {
                setBot(settings.scopes.bot);
                setUser(settings.scopes.user);
              }}
            >
              Undo changes
            </button>
            <span className="text-xs text-slate-500">Saving changes the manifest; installations keep their scopes until reinstalled.</span>
          </div>
        )}
        {reinstallOffered && <ReinstallLinks settings={settings} />}
      </div>
    </Panel>
  );
}

function ReinstallLinks({ settings }: { settings: AppSettingsView }) {
  const linkClass = `${BUTTON.primary} no-underline`;
  return (
    <div role="status" className="space-y-2 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-3 text-sm text-emerald-950">
      <p>
        <strong>Scopes saved in the manifest.</strong> An installation gets them only through a new install; the platform keeps the scopes it granted before
        (removing one takes an uninstall).
      </p>
      <div className="flex flex-wrap gap-2">
        {settings.installations.map((installation) => (
          <a key={installation.id} href={installation.reinstallHref} className={linkClass}>
            Reinstall in <PlatformText>{installation.team.name || installation.team.id}</PlatformText> with the new scopes
          </a>
        ))}
        {settings.installations.length === 0 && settings.installHref && (
          <a href={settings.installHref} className={linkClass}>
            Install with the new scopes
          </a>
        )}
      </div>
      {settings.installations.length === 0 && !settings.installHref && (
        <p className="text-xs">This console does not install this app (it is neither its own app nor the emulator&apos;s legacy app).</p>
      )}
    </div>
  );
}
