"use client";

import { useState, type FormEvent } from "react";
import { PlatformText } from "@/components/platform-text";
import { useAddWebhook, useRemoveWebhook } from "@/lib/swr/use-webhooks";
import type { WebhookView } from "@/lib/webhooks/universal/types";

/** The console's webhooks as a radio group: the browser only ever holds their ids and masked URLs. */
export function WebhookList({ webhooks, selectedId, onSelect }: { webhooks: WebhookView[]; selectedId: string | null; onSelect: (id: string) => void }) {
  const remove = useRemoveWebhook();
  return (
    <section aria-labelledby="webhooks-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <h2 id="webhooks-heading" className="border-b border-slate-100 px-4 py-3 text-sm font-semibold">
        Webhooks
      </h2>
      {webhooks.length === 0 ? (
        <p className="px-4 py-4 text-sm text-slate-600">
          None yet.{" "}
          <a className="font-medium text-emerald-700 underline" href="/oauth/install">
            Install the app
          </a>{" "}
          with the <code className="rounded bg-slate-100 px-1 text-xs">incoming-webhook</code> scope and pick a channel, or paste a webhook URL below.
        </p>
      ) : (
        <div role="radiogroup" aria-label="Webhook to post through" className="divide-y divide-slate-100">
          {webhooks.map((hook) => {
            const selected = hook.id === selectedId;
            return (
              <div key={hook.id} className={`flex items-center gap-2 px-2 py-1 ${selected ? "bg-emerald-50" : ""}`}>
                <label className="flex min-w-0 flex-1 cursor-pointer items-start gap-3 rounded px-2 py-2">
                  <input
                    type="radio"
                    name="webhook"
                    value={hook.id}
                    checked={selected}
                    onChange={() => onSelect(hook.id)}
                    className="mt-1 accent-emerald-600"
                  />
                  <span className="min-w-0">
                    <PlatformText className="block truncate text-sm font-medium text-slate-900">{hook.label}</PlatformText>
                    <span className="block truncate font-mono text-xs text-slate-500">{hook.maskedUrl}</span>
                    <span className="mt-1 inline-block rounded bg-slate-100 px-1.5 py-px text-[10px] font-medium uppercase tracking-wide text-slate-600">
                      {hook.source === "installation" ? "from install" : "pasted"}
                    </span>
                  </span>
                </label>
                {hook.source === "pasted" && (
                  <button
                    type="button"
                    onClick={() => remove.trigger({ id: hook.id })}
                    disabled={remove.isMutating}
                    className="rounded px-2 py-1 text-xs text-slate-500 hover:bg-rose-50 hover:text-rose-700"
                    aria-label={`Remove ${hook.label}`}
                  >
                    Remove
                  </button>
                )}
              </div>
            );
          })}
        </div>
      )}
      <PasteWebhookForm onAdded={onSelect} />
    </section>
  );
}

function PasteWebhookForm({ onAdded }: { onAdded: (id: string) => void }) {
  const add = useAddWebhook();
  const [url, setUrl] = useState("");
  const [label, setLabel] = useState("");
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const { webhook } = await add.trigger({ url, label });
      setUrl("");
      setLabel("");
      onAdded(webhook.id);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  return (
    <form onSubmit={submit} className="space-y-2 border-t border-slate-100 px-4 py-3" aria-label="Paste a webhook URL">
      <p className="text-xs font-medium text-slate-700">Paste a webhook URL</p>
      <label className="block">
        <span className="sr-only">Webhook URL</span>
        <input
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://hooks.slack.com/services/T…/B…/…"
          aria-describedby="paste-help"
          className="w-full rounded-md border border-slate-300 px-2.5 py-1.5 font-mono text-xs focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
        />
      </label>
      <label className="block">
        <span className="sr-only">Label</span>
        <input
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          placeholder="Label (optional)"
          maxLength={60}
          className="w-full rounded-md border border-slate-300 px-2.5 py-1.5 text-xs focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
        />
      </label>
      <div className="flex items-center justify-between gap-2">
        <p id="paste-help" className="text-[11px] leading-4 text-slate-500">
          Kept sealed on the server; shown masked from now on.
        </p>
        <button
          type="submit"
          disabled={add.isMutating || url.trim() === ""}
          className="shrink-0 whitespace-nowrap rounded-md border border-slate-300 bg-white px-3 py-1.5 text-xs font-medium text-slate-800 shadow-sm hover:bg-slate-50 disabled:opacity-50"
        >
          {add.isMutating ? "Adding…" : "Add webhook"}
        </button>
      </div>
      {error && (
        <p role="alert" className="rounded-md bg-rose-50 px-2.5 py-2 text-xs text-rose-800">
          {error}
        </p>
      )}
    </form>
  );
}
