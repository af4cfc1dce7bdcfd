"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { SegmentedControl } from "@/components/segmented-control";
import type { CatalogMethod } from "@/lib/explorer/catalog";
import { buildCurl, isJsonBody } from "@/lib/explorer/curl";
import { buildJavaScriptSnippet, buildPythonSnippet } from "@/lib/explorer/snippets";
import type { ApiCallResult } from "@/lib/swr/use-api-call";
import { BUTTON, Badge, Panel } from "@/components/ui/primitives";
import { formatBytes, formatMs } from "@/lib/format";

function queryFields(url: string): Array<[string, string]> {
  try {
    return [...new URL(url).searchParams];
  } catch {
    return [];
  }
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function FieldTable({ fields, label }: { fields: Array<[string, string]>; label?: string }) {
  return (
    <table className="mt-1 w-full font-mono text-xs" aria-label={label}>
      <tbody>
        {fields.map(([k, v], i) => (
          <tr key={`${k}-${i}`} className="align-top">
            <td className="w-32 py-0.5 pr-2 text-slate-500">{k}</td>
            <td className="break-all py-0.5">{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A Fetch all as started: the walk runs on the server, so there is no single wire request to show. */
export interface WalkSummary {
  method: string;
  params: Record<string, string>;
  maxPages: number;
}

/**
 * What went over the wire for the last call, with the token masked, and the same request as curl. While a
 * Fetch all is shown it says what the walk asked for instead: its many upstream calls happen on the server.
 */
export function RequestInspector({
  result,
  walk = null,
  catalogMethod,
}: {
  result: ApiCallResult | null;
  walk?: WalkSummary | null;
  /** The sent method's catalog entry: the snippets call it by its own function, with its arguments' types. */
  catalogMethod?: CatalogMethod;
}) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const [language, setLanguage] = useState<"curl" | "javascript" | "python">("curl");
  const curl = useMemo(() => (!walk && result?.wire ? buildCurl(result.wire) : null), [result, walk]);
  const snippet = useMemo(() => {
    if (walk || !result?.wire) return null;
    if (language === "javascript") return buildJavaScriptSnippet(result.wire, { method: catalogMethod });
    if (language === "python") return buildPythonSnippet(result.wire, { method: catalogMethod });
    return curl;
  }, [curl, language, result, walk, catalogMethod]);
  const resetTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (resetTimer.current) clearTimeout(resetTimer.current);
    },
    [],
  );

  const copy = async () => {
    if (!curl?.complete) return;
    try {
      await navigator.clipboard.writeText(curl.code);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
    if (resetTimer.current) clearTimeout(resetTimer.current);
    resetTimer.current = setTimeout(() => setCopied("idle"), 2000);
  };

  const body = result?.body as { ok?: unknown; error?: unknown } | undefined;
  const ok = body?.ok === true;
  return (
    <Panel
      title="Request inspector"
      actions={
        <>
          <button
            type="button"
            className={BUTTON.secondary}
            onClick={copy}
            disabled={!curl?.complete}
            aria-label="Copy as curl"
            title={curl && !curl.complete ? curl.reason : undefined}
          >
            {copied === "copied" ? "Copied ✓" : copied === "failed" ? "Copy failed" : "Copy as curl"}
          </button>
          <span role="status" aria-live="polite" className="sr-only">
            {copied === "copied" ? "Copied the curl command" : copied === "failed" ? "Could not copy the curl command" : ""}
          </span>
        </>
      }
    >
      {walk ? (
        <div className="space-y-2 text-sm">
          <p className="text-slate-600">
            Fetch all walks every page on the server, so there is no single request to copy: the inspector and Copy as curl cover single calls (Send, Next,
            Previous).
          </p>
          <dl className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-2 gap-y-1">
            <dt className="text-xs text-slate-500">method</dt>
            <dd className="font-mono" data-testid="inspector-walk-method">
              {walk.method}
            </dd>
            <dt className="text-xs text-slate-500">page cap</dt>
            <dd className="font-mono tabular-nums">{walk.maxPages.toLocaleString("en-US")}</dd>
          </dl>
          {Object.keys(walk.params).length > 0 && (
            <div>
              <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Parameters of every page</h3>
              <FieldTable fields={Object.entries(walk.params)} />
            </div>
          )}
        </div>
      ) : !result ? (
        <p className="text-sm text-slate-500">Send a request to see what the console sent upstream.</p>
      ) : (
        <div className="space-y-3 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={result.status === 200 ? "ok" : result.status === 429 ? "warn" : "error"}>HTTP {result.status}</Badge>
            <Badge tone={ok ? "ok" : "error"}>{ok ? "ok: true" : `ok: false${typeof body?.error === "string" ? ` · ${body.error}` : ""}`}</Badge>
            {result.refreshed && <Badge tone="warn">token refreshed</Badge>}
          </div>
          <dl className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-2 gap-y-1">
            <dt className="text-xs text-slate-500">method</dt>
            <dd className="font-mono">
              {result.wire?.method ?? "—"} {result.method}
            </dd>
            <dt className="text-xs text-slate-500">URL</dt>
            <dd className="break-all font-mono text-xs" data-testid="inspector-url">
              {result.wire?.url ?? "(no upstream call)"}
            </dd>
            <dt className="text-xs text-slate-500">upstream</dt>
            <dd className="font-mono tabular-nums">{result.upstreamMs !== null ? formatMs(result.upstreamMs) : "—"}</dd>
            <dt className="text-xs text-slate-500">round trip</dt>
            <dd className="font-mono tabular-nums">
              {formatMs(result.roundTripMs)} · {formatBytes(result.bytes)}
            </dd>
          </dl>
          {result.wire && (
            <>
              <div>
                <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Headers</h3>
                <table className="w-full font-mono text-xs">
                  <tbody>
                    {Object.entries(result.wire.headers).map(([name, value]) => (
                      <tr key={name} className="align-top">
                        <td className="w-32 py-0.5 pr-2 text-slate-500">{name}</td>
                        <td className="break-all py-0.5">{value}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {result.wire.body !== undefined && isJsonBody(result.wire) ? (
                <div>
                  <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">JSON body</h3>
                  <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono text-xs" data-testid="inspector-body">
                    {prettyJson(result.wire.body)}
                  </pre>
                </div>
              ) : result.wire.body !== undefined ? (
                <div>
                  <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Form body</h3>
                  <pre className="overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono text-xs" data-testid="inspector-body">
                    {result.wire.body || "(empty)"}
                  </pre>
                  <FieldTable fields={[...new URLSearchParams(result.wire.body)]} />
                </div>
              ) : (
                queryFields(result.wire.url).length > 0 && (
                  <div>
                    <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Query string (decoded)</h3>
                    <FieldTable fields={queryFields(result.wire.url)} />
                  </div>
                )
              )}
              {Object.keys(result.headers).length > 0 && (
                <div>
                  <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Response headers</h3>
                  <FieldTable fields={Object.entries(result.headers)} label="Response headers" />
                </div>
              )}
              <div>
                <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
                  <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">As code</h3>
                  <SegmentedControl
                    label="Code language"
                    className="bg-slate-100 text-xs"
                    value={language}
                    onChange={setLanguage}
                    options={[
                      { value: "curl", label: "curl" },
                      { value: "javascript", label: "@slack/web-api" },
                      { value: "python", label: "slack_sdk" },
                    ]}
                  />
                </div>
                {snippet?.complete === false ? (
                  <p role="note" className="rounded border border-amber-300 bg-amber-50 p-3 text-xs text-amber-950" data-testid="code-unavailable">
                    {snippet.reason}
                  </p>
                ) : (
                  <pre
                    className="whitespace-pre-wrap break-all rounded bg-[#0f172a] p-3 font-mono text-xs leading-5 text-[#f1f5f9]"
                    data-testid={language === "curl" ? "curl-preview" : "snippet-preview"}
                  >
                    {snippet?.code}
                  </pre>
                )}
                <p className="mt-1 text-xs text-slate-500">
                  Export <code className="font-mono">TOKEN</code> first: the console never shows its value.
                </p>
              </div>
            </>
          )}
        </div>
      )}
    </Panel>
  );
}
