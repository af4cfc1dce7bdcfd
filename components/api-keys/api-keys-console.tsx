"use client";

import { useState } from "react";
import useSWR from "swr";
import { BUTTON, INPUT, Panel } from "@/components/ui/primitives";
import { formatDateTime } from "@/lib/format";
import type { StoreApiKey, StoreTokenApiUse } from "@/lib/store/types";
import { ConsoleRequestError, fetchJson, jsonBody } from "@/lib/swr/console-fetch";

/** What the routes answer: lib/store's shapes, which hold no secret (a key's hash stays in the store). */
type ApiKey = StoreApiKey;
type Use = StoreTokenApiUse & { seq: number };

/** The token API's keys: create one (shown once), see each key's uses, revoke it. An admin's page. */
export function ApiKeysConsole() {
  const { data, error, mutate } = useSWR<{ apiKeys: ApiKey[] }>("/api/api-keys", (url: string) => fetchJson<{ apiKeys: ApiKey[] }>(url));
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (error instanceof ConsoleRequestError && error.status === 403) {
    return <p className="rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700">Only an admin creates and sees API keys.</p>;
  }

  async function create(form: FormData) {
    setBusy(true);
    setProblem(null);
    try {
      const teams = String(form.get("teams") ?? "")
        .split(/[\s,]+/)
        .filter(Boolean);
      const answer = await fetchJson<{ key: string; apiKey: ApiKey }>(
        "/api/api-keys",
        jsonBody({ name: String(form.get("name") ?? ""), app: String(form.get("app") ?? "console"), ...(teams.length > 0 ? { teamIds: teams } : {}) }),
      );
      setCreated({ name: answer.apiKey.name, key: answer.key });
      await mutate();
    } catch (e) {
      setProblem(e instanceof Error ? e.message : "The key was not created.");
    } finally {
      setBusy(false);
    }
  }

  async function revoke(key: ApiKey) {
    if (!window.confirm(`Revoke "${key.name}"? Backends using it get 403 from the next request.`)) return;
    setBusy(true);
    try {
      await fetchJson(`/api/api-keys/${encodeURIComponent(key.id)}`, { method: "DELETE" });
      await mutate();
    } catch (e) {
      setProblem(e instanceof Error ? e.message : "The key was not revoked.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-6">
      <Panel title="Create a key">
        <form action={create} className="grid gap-3 sm:grid-cols-[1fr_12rem_1fr_auto] sm:items-end">
          <label className="grid gap-1 text-sm">
            <span className="font-medium text-slate-800">Name</span>
            <input name="name" required maxLength={80} placeholder="billing worker" className={INPUT} />
          </label>
          <label className="grid gap-1 text-sm">
            <span className="font-medium text-slate-800">App</span>
            <select name="app" className={INPUT} defaultValue="console">
              <option value="console">the console&apos;s app</option>
              <option value="legacy">the emulator&apos;s legacy app</option>
            </select>
          </label>
          <label className="grid gap-1 text-sm">
            <span className="font-medium text-slate-800">Only these workspaces (optional)</span>
            <input name="teams" placeholder="T0123ABCD, E0456EFGH" className={INPUT} />
          </label>
          <button type="submit" className={BUTTON.primary} disabled={busy}>
            Create key
          </button>
        </form>
        {problem && (
          <p role="alert" className="mt-3 text-sm text-rose-800">
            {problem}
          </p>
        )}
        {created && (
          <div role="status" className="mt-4 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
            <p>
              The key for <strong>{created.name}</strong>, shown this once (Switchboard keeps only its hash): put it in your backend&apos;s secrets.
            </p>
            <code data-testid="new-api-key" className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono text-xs text-slate-900">
              {created.key}
            </code>
            <button type="button" className={`${BUTTON.secondary} mt-2`} onClick={() => void navigator.clipboard?.writeText(created.key)}>
              Copy
            </button>
          </div>
        )}
      </Panel>

      <Panel title="Keys">
        {!data && !error && <p className="text-sm text-slate-600">Loading…</p>}
        {data && data.apiKeys.length === 0 && <p className="text-sm text-slate-600">No keys yet.</p>}
        <ul className="divide-y divide-slate-100">
          {data?.apiKeys.map((key) => (
            <li key={key.id} className="py-3" data-api-key={key.id}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="min-w-0">
                  <p className="text-sm font-medium text-slate-900">
                    {key.name} <code className="font-mono text-xs text-slate-600">{key.prefix}…</code>
                    {key.revokedAt !== undefined && <span className="ml-2 text-xs font-medium text-rose-800">revoked {formatDateTime(key.revokedAt)}</span>}
                  </p>
                  <p className="text-xs text-slate-600">
                    {key.appKey === "legacy" ? "the emulator's legacy app" : "the console's app"}
                    {key.teamIds ? ` · only ${key.teamIds.join(", ")}` : " · every workspace"} · created {formatDateTime(key.createdAt)}
                    {key.createdBy ? ` by ${key.createdBy}` : ""} ·{" "}
                    {key.lastUsedAt !== undefined ? `last used ${formatDateTime(key.lastUsedAt)}` : "never used"}
                  </p>
                </div>
                {key.revokedAt === undefined && (
                  <button type="button" className={BUTTON.danger} disabled={busy} onClick={() => void revoke(key)}>
                    Revoke…
                  </button>
                )}
              </div>
              <KeyUses id={key.id} />
            </li>
          ))}
        </ul>
      </Panel>
    </div>
  );
}

/** A key's newest uses, on demand. */
function KeyUses({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const { data } = useSWR<{ uses: Use[] }>(open ? `/api/api-keys/${encodeURIComponent(id)}/uses?limit=20` : null, (url: string) =>
    fetchJson<{ uses: Use[] }>(url),
  );
  return (
    <details className="mt-2 text-xs" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary className="cursor-pointer text-slate-700">Uses</summary>
      {data && data.uses.length === 0 && <p className="mt-1 text-slate-600">None yet.</p>}
      {data && data.uses.length > 0 && (
        <ul className="mt-1 space-y-0.5 break-all font-mono text-slate-700">
          {data.uses.map((use) => (
            <li key={use.seq}>
              {formatDateTime(use.at)} · {use.teamId} · {use.kind}
              {use.userId ? ` (${use.userId})` : ""} · {use.status}
              {use.error ? ` ${use.error}` : ""}
              {use.refreshed ? " · refreshed" : ""}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
