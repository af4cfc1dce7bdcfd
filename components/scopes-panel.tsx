import { reinstallHref } from "@/lib/installations/universal/install-href";
import { PlatformText } from "@/components/platform-text";
import { ScopeName } from "@/components/scope-name";
import type { InstallationView } from "@/lib/installations/universal/view";

/** What each console feature needs from the installation's bot token. */
export const SCOPE_FEATURES = [
  { scope: "chat:write", feature: "Post messages with chat.postMessage" },
  { scope: "chat:write.public", feature: "Post in public channels without joining them" },
  { scope: "channels:read", feature: "List channels (conversations.list)" },
  { scope: "users:read", feature: "List members (users.list)" },
  { scope: "incoming-webhook", feature: "Post through an incoming webhook" },
  { scope: "app_mentions:read", feature: "Receive app_mention events" },
] as const;

export type FeatureScope = (typeof SCOPE_FEATURES)[number]["scope"];

/**
 * Granted against needed, per installation: a feature whose scope is missing cannot work until the app
 * is reinstalled (the platform only changes scopes through a new install).
 */
export function ScopesPanel({ installation, focus = [] }: { installation: InstallationView; focus?: readonly FeatureScope[] }) {
  const granted = installation.bot?.scopes ?? [];
  const missing = SCOPE_FEATURES.map((f) => f.scope).filter((s) => !granted.includes(s));
  const headingId = `scopes-${installation.id}`;
  const name = installation.name;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="flex items-start justify-between gap-3 border-b border-slate-100 px-4 py-3">
        <div>
          <h2 id={headingId} className="text-sm font-semibold text-slate-900">
            Scopes · <PlatformText>{name}</PlatformText>
          </h2>
          <p className="mt-0.5 text-xs text-slate-500">
            {missing.length === 0 ? "Every feature has the scope it needs." : `${missing.length} missing: changing scopes requires reinstalling.`}
          </p>
        </div>
        {missing.length > 0 && (
          <a
            href={reinstallHref(installation, [...granted, ...missing])}
            className="shrink-0 rounded-md bg-emerald-700 px-3 py-1.5 text-xs font-semibold text-white shadow-sm hover:bg-emerald-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600"
            aria-label={`Reinstall in ${name} with the missing scopes`}
          >
            Reinstall
          </a>
        )}
      </header>
      <table className="w-full text-left text-xs">
        <caption className="sr-only">
          Scopes needed by each feature, and whether <PlatformText>{name}</PlatformText> granted them
        </caption>
        <thead className="text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">
              Feature
            </th>
            <th scope="col" className="px-2 py-2 font-medium">
              Needs
            </th>
            <th scope="col" className="px-4 py-2 text-right font-medium">
              Granted
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {SCOPE_FEATURES.map(({ scope, feature }) => {
            const ok = granted.includes(scope);
            const focused = focus.includes(scope);
            return (
              <tr key={scope} className={focused ? "bg-emerald-50/60" : undefined}>
                <td className="px-4 py-2 text-slate-700">
                  {feature}
                  {focused && " "}
                  {focused && <span className="ml-1.5 rounded bg-emerald-100 px-1 py-px text-[10px] font-medium text-emerald-800">this page</span>}
                </td>
                <td className="px-2 py-2">
                  <code className="rounded bg-slate-100 px-1 py-px font-mono text-[11px] text-slate-700">
                    <ScopeName name={scope} />
                  </code>
                </td>
                <td className="px-4 py-2 text-right">
                  {ok ? (
                    <span className="inline-flex items-center gap-1 font-medium text-emerald-700">
                      <span aria-hidden>✓</span> granted
                    </span>
                  ) : (
                    <span className="inline-flex items-center gap-1 font-medium text-rose-700">
                      <span aria-hidden>✕</span> missing
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/** One panel per installation of this session (rendered on the server from the sealed cookies). */
export function InstallationScopes({ installations, focus = [] }: { installations: InstallationView[]; focus?: readonly FeatureScope[] }) {
  if (installations.length === 0) {
    return (
      <section className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-4 text-sm text-slate-600">
        No installation in this session yet.{" "}
        <a href="/oauth/install" className="font-medium text-emerald-700 underline">
          Add to a workspace
        </a>{" "}
        to see which scopes each feature needs.
      </section>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      {installations.map((installation) => (
        <ScopesPanel key={installation.id} installation={installation} focus={focus} />
      ))}
    </div>
  );
}
