"use client";

import { useState, type FormEvent } from "react";
import { PlatformText } from "@/components/platform-text";
import { Badge } from "@/components/ui/primitives";
import { SegmentedControl } from "@/components/segmented-control";
import { toConsoleRequestError } from "@/lib/swr/console-fetch";
import { useSendWebhook } from "@/lib/swr/use-webhooks";
import type { WebhookSendResponse, WebhookView } from "@/lib/webhooks/universal/types";

type Mode = "text" | "json";

const SAMPLE_PAYLOAD = JSON.stringify(
  {
    text: "Deploy finished",
    blocks: [{ type: "section", text: { type: "mrkdwn", text: "*Deploy finished* :rocket:" } }],
  },
  null,
  2,
);

/** What the composer shows after a send: the platform's answer, or why the proxy did not send. */
type Outcome = { kind: "answer"; answer: WebhookSendResponse } | { kind: "proxy-error"; status: number; code: string; message: string };

export function WebhookComposer({ webhook, onSent }: { webhook: WebhookView | null; onSent: () => void }) {
  const send = useSendWebhook();
  const [mode, setMode] = useState<Mode>("text");
  const [text, setText] = useState("Hello from Switchboard :wave:");
  const [payload, setPayload] = useState(SAMPLE_PAYLOAD);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const jsonProblem = mode === "json" ? jsonError(payload) : null;
  const empty = mode === "text" ? text.trim() === "" : payload.trim() === "";

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!webhook) return;
    try {
      const answer = await send.trigger(mode === "text" ? { webhookId: webhook.id, text } : { webhookId: webhook.id, payload });
      setOutcome({ kind: "answer", answer });
    } catch (e) {
      const error = toConsoleRequestError(e);
      setOutcome({ kind: "proxy-error", status: error.status, code: error.code, message: error.message });
    }
    onSent();
  }

  return (
    <section aria-labelledby="composer-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-4 py-3">
        <div className="min-w-0">
          <h2 id="composer-heading" className="text-sm font-semibold">
            Compose
          </h2>
          <p className="truncate text-xs text-slate-500">
            {webhook ? (
              <>
                To <PlatformText className="font-medium text-slate-700">{webhook.label}</PlatformText> · <span className="font-mono">{webhook.maskedUrl}</span>
              </>
            ) : (
              "Pick or add a webhook first."
            )}
          </p>
        </div>
        <SegmentedControl
          label="Message format"
          className="bg-slate-100 text-xs"
          value={mode}
          onChange={setMode}
          options={[
            { value: "text", label: "Text" },
            { value: "json", label: "JSON payload" },
          ]}
        />
      </header>
      <form onSubmit={submit} className="space-y-3 px-4 py-4">
        {mode === "text" ? (
          <label className="block">
            <span className="mb-1 block text-xs font-medium text-slate-700">Message text</span>
            <textarea
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={4}
              className="w-full resize-y rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
            />
          </label>
        ) : (
          <label className="block">
            <span className="mb-1 flex items-center justify-between text-xs font-medium text-slate-700">
              JSON payload
              {jsonProblem ? (
                <span className="font-normal text-amber-700">Not valid JSON ({jsonProblem}): the platform will answer invalid_payload</span>
              ) : (
                <span className="font-normal text-slate-500">Sent exactly as typed</span>
              )}
            </span>
            <textarea
              value={payload}
              onChange={(e) => setPayload(e.target.value)}
              rows={9}
              spellCheck={false}
              className="w-full resize-y rounded-md border border-slate-300 px-3 py-2 font-mono text-xs leading-5 focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
            />
          </label>
        )}
        <div className="flex items-center justify-between gap-3">
          <p className="text-[11px] text-slate-500">Through the console's proxy: allowlisted hosts only, no redirects, 10 s, 40 KB.</p>
          <button
            type="submit"
            disabled={!webhook || empty || send.isMutating}
            className="shrink-0 whitespace-nowrap rounded-md bg-emerald-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-emerald-800 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {send.isMutating ? "Sending…" : "Send message"}
          </button>
        </div>
      </form>
      <div role="status" aria-live="polite" aria-label="Send result">
        {outcome && <SendResult outcome={outcome} />}
      </div>
    </section>
  );
}

function jsonError(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message.replace(/^JSON\.parse: /, "").slice(0, 60) : "syntax error";
  }
}

function SendResult({ outcome }: { outcome: Outcome }) {
  const ok = outcome.kind === "answer" && outcome.answer.ok;
  const status = outcome.kind === "answer" ? outcome.answer.status : outcome.status;
  const body = outcome.kind === "answer" ? outcome.answer.body : outcome.message;
  const hint = outcome.kind === "answer" ? outcome.answer.hint : null;
  return (
    <div className={`border-t px-4 py-3 ${ok ? "border-emerald-100 bg-emerald-50/70" : "border-rose-100 bg-rose-50/70"}`}>
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <Badge tone={ok ? "ok" : "error"}>HTTP {status}</Badge>
        <span className="text-slate-600">{outcome.kind === "answer" ? "The platform answered" : "The proxy did not send"}</span>
        {outcome.kind === "answer" && <span className="text-slate-500">· {outcome.answer.durationMs} ms</span>}
        {outcome.kind === "answer" && outcome.answer.retryAfterS !== null && (
          <span className="text-amber-700">· Retry-After {outcome.answer.retryAfterS} s</span>
        )}
      </div>
      <pre
        aria-label="Response body"
        className="mt-2 overflow-x-auto whitespace-pre-wrap break-words rounded bg-white/80 px-2.5 py-1.5 font-mono text-xs text-slate-800 ring-1 ring-slate-200"
      >
        {body ? <PlatformText>{body}</PlatformText> : "(empty body)"}
        {outcome.kind === "answer" && outcome.answer.truncated ? "\n… (only the first 4 KB were read)" : ""}
      </pre>
      {hint && (
        <p className="mt-2 text-xs text-slate-700">
          <span className="font-semibold">What to do: </span>
          {hint}
        </p>
      )}
    </div>
  );
}
