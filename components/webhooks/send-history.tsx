"use client";

import type { WebhookSend } from "@/lib/webhooks/universal/types";
import { LocalTime } from "@/components/local-time";
import { PlatformText } from "@/components/platform-text";
import { Badge } from "@/components/ui/primitives";

/** The latest sends (the newest 50 of those the store keeps): what was sent and what came back, never a URL. */
export function SendHistory({ history }: { history: WebhookSend[] }) {
  return (
    <section aria-labelledby="history-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <h2 id="history-heading" className="border-b border-slate-100 px-4 py-3 text-sm font-semibold">
        Send history <span className="font-normal text-slate-500">· times by your clock</span>
      </h2>
      {history.length === 0 ? (
        <p className="px-4 py-4 text-sm text-slate-500">Nothing sent yet.</p>
      ) : (
        <ol aria-label="Sends, newest first" className="divide-y divide-slate-100">
          {history.map((entry) => (
            <li key={entry.id} className="flex items-start gap-3 px-4 py-2.5 text-xs">
              <span className="mt-px shrink-0">
                <Badge tone={entry.ok ? "ok" : "error"}>{entry.status}</Badge>
              </span>
              <span className="min-w-0 flex-1">
                <PlatformText className="block truncate text-slate-800">{entry.preview}</PlatformText>
                <span className="block truncate text-slate-500">
                  <PlatformText>{entry.webhookLabel}</PlatformText> · <PlatformText className="font-mono">{entry.result}</PlatformText>
                </span>
              </span>
              <LocalTime at={entry.sentAt} date="auto" className="shrink-0 tabular-nums text-slate-500" />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
