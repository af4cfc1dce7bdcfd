"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { reinstallHref } from "@/components/installations/install-href";
import { SegmentedControl } from "@/components/segmented-control";
import { exportFileName, toCsv, toJsonExport } from "@/lib/explorer/export";
import { DEFAULT_MAX_PAGES } from "@/lib/explorer/fetch-all-events";
import { findCollection } from "@/lib/explorer/items";
import { currentCursor, pageNumber, popPage, pushPage, stackForSend, START, type PageStack } from "@/lib/explorer/pagination";
import { callQuery, fromSearchParams, isValidMethod, methodParams, toSearchParams, type ExplorerRequest } from "@/lib/explorer/params";
import { readNextCursor } from "@/lib/platform/cursor";
import { installationName } from "@/lib/session/installation-name";
import { useApiCall, type ApiCallResult } from "@/lib/swr/use-api-call";
import { useFetchAll, type PageTiming } from "@/lib/swr/use-fetch-all";
import { useRequestHistory } from "@/lib/swr/use-request-history";
import { useSession } from "@/lib/swr/use-session";
import { FetchAllPanel } from "./fetch-all-panel";
import { HistoryPanel } from "./history-panel";
import { JsonViewer } from "./json-viewer";
import { PageTimings } from "./page-timings";
import { PaginationPanel } from "./pagination-panel";
import { RequestForm, type InstallationOption } from "./request-form";
import { RequestInspector } from "./request-inspector";
import { ResultsTable } from "./results-table";
import { BUTTON, formatBytes, Panel } from "./ui";

/** Methods safe to call again on reload: reads only. */
const READ_ONLY_METHOD = /\.(list|info|history)$|^auth\.test$/;

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The explorer: one request form, a walk by hand or a walk of everything, and what went over the wire. */
export function Explorer() {
  const search = useSearchParams();
  const [request, setRequest] = useState<ExplorerRequest>(() => fromSearchParams(new URLSearchParams(search.toString())));
  const [maxPages, setMaxPages] = useState(String(DEFAULT_MAX_PAGES));
  const [stack, setStack] = useState<PageStack>(START);
  const [pageCounts, setPageCounts] = useState<number[]>([]);
  const [pageTimings, setPageTimings] = useState<PageTiming[]>([]);
  const [result, setResult] = useState<ApiCallResult | null>(null);
  // The request that produced `result`: Next and Previous page from it, not from whatever the form holds now.
  const [sent, setSent] = useState<ExplorerRequest | null>(null);
  // The request and page cap of the last Fetch all, as they were when it started.
  const [walk, setWalk] = useState<{ request: ExplorerRequest; maxPages: number } | null>(null);
  const [mode, setMode] = useState<"page" | "all">("page");
  const [tab, setTab] = useState<"table" | "json">("table");
  const { trigger, isMutating } = useApiCall();
  const fetchAll = useFetchAll();
  const history = useRequestHistory();
  const session = useSession();

  const installations: InstallationOption[] = useMemo(
    () =>
      (session.data?.installations ?? []).map((i) => ({
        id: i.id,
        label: `${installationName(i.team, i.app.key)} (${i.team.id})${i.state === "needs_reinstall" ? " · needs reinstall" : ""}`,
        hasBot: i.bot !== null,
        hasUser: i.user !== null,
      })),
    [session.data],
  );

  // The installation named in the URL, or the first one the session has.
  useEffect(() => {
    if (installations.length === 0) return;
    setRequest((r) => (installations.some((i) => i.id === r.installation) ? r : { ...r, installation: installations[0]!.id }));
  }, [installations]);

  const send = useCallback(
    async (base: ExplorerRequest, cursor: string, nextStack: PageStack) => {
      const sending = { ...base, cursor };
      setRequest(sending);
      setMode("page");
      window.history.replaceState(null, "", `?${toSearchParams(sending).toString()}`);
      const answer = await trigger({ method: sending.method, query: callQuery(sending) });
      const count = findCollection(answer.body)?.items.length;
      const body = answer.body as { ok?: unknown; error?: unknown };
      const page = pageNumber(nextStack);
      setResult(answer);
      setSent(sending);
      setStack(nextStack);
      setPageCounts((counts) => [...counts.slice(0, page - 1), count ?? 0]);
      // A call the console answered itself never went upstream: it has no upstream time to plot.
      const upstreamMs = answer.upstreamMs;
      setPageTimings((timings) => [...timings.filter((t) => t.page < page), ...(upstreamMs !== null ? [{ page, count: count ?? 0, ms: upstreamMs }] : [])]);
      history.add({
        id: `${answer.at}-${Math.random().toString(36).slice(2, 8)}`,
        at: answer.at,
        method: sending.method,
        installation: sending.installation,
        tokenKind: sending.tokenKind,
        params: methodParams(sending),
        status: answer.status,
        ok: body?.ok === true,
        ...(typeof body?.error === "string" ? { error: body.error } : {}),
        ms: answer.upstreamMs ?? answer.roundTripMs,
        ...(count !== undefined ? { count } : {}),
      });
    },
    [trigger, history],
  );

  const canSend = isValidMethod(request.method) && request.installation !== "" && !isMutating;
  const sendForm = useCallback(() => {
    if (!canSend) return;
    const from = stackForSend(stack, sent, request);
    if (!from.continues) {
      setPageCounts([]);
      setPageTimings([]);
    }
    void send(request, request.cursor, from.stack);
  }, [canSend, request, send, sent, stack]);

  const nextCursor = result ? readNextCursor(result.body) : null;
  const onNext = () => sent && nextCursor && void send(sent, nextCursor, pushPage(stack, nextCursor));
  const onPrevious = () => {
    if (!sent) return;
    const back = popPage(stack);
    void send(sent, currentCursor(back), back);
  };
  const onRetry = () => sent && void send(sent, sent.cursor, stack);
  const onStartOver = () => {
    setPageCounts([]);
    setPageTimings([]);
    void send(sent ?? request, "", START);
  };

  const startFetchAll = () => {
    setMode("all");
    setTab("table");
    window.history.replaceState(null, "", `?${toSearchParams(request).toString()}`);
    // A walk of everything starts at the first page, wherever the walk by hand has got to.
    const first = { ...request, cursor: "" };
    const cap = Number(maxPages) || DEFAULT_MAX_PAGES;
    setWalk({ request: first, maxPages: cap });
    fetchAll.start(request.method, callQuery(first, { max_pages: String(cap) }));
  };

  // Ctrl/Cmd+Enter sends from anywhere on the page.
  const sendRef = useRef(sendForm);
  useEffect(() => {
    sendRef.current = sendForm;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        sendRef.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // A shared or reloaded view of a read-only method shows its first page again.
  const autoSent = useRef(false);
  const openedWithMethod = useRef(search.get("method") !== null);
  useEffect(() => {
    if (autoSent.current || !openedWithMethod.current || request.installation === "" || !READ_ONLY_METHOD.test(request.method)) return;
    if (!installations.some((i) => i.id === request.installation)) return;
    autoSent.current = true;
    sendForm();
  }, [installations, request, sendForm]);

  const all = fetchAll.state;
  const showAll = mode === "all" && all !== null;
  const pageBody = result?.body as { ok?: unknown; error?: unknown; message?: unknown } | undefined;
  const pageError = pageBody && pageBody.ok !== true ? (typeof pageBody.error === "string" ? pageBody.error : `http_${result?.status}`) : null;
  const pageCollection = useMemo(() => (result ? findCollection(result.body) : null), [result]);
  const page = pageNumber(stack);
  const total = pageCounts.slice(0, page).reduce((a, b) => a + b, 0);

  const showAllJson = showAll && tab === "json";
  const allJson = useMemo(
    // A walk appends to `items` in place: a copy per page lets the (memoised) tree see it grow, and is made
    // only while the JSON view is shown.
    () => (all && showAllJson ? { method: all.method, pages: all.pages, count: all.items.length, [all.field]: all.items.slice() } : null),
    // Its page count says when `items` grew.
    [all?.runId, all?.pages, all?.status, showAllJson],
  );

  const onDownload = (format: "json" | "csv") => {
    if (!all) return;
    if (format === "json") download(exportFileName(all.method, "json"), "application/json", toJsonExport(all.method, all.field, all.items, all.pages));
    else download(exportFileName(all.method, "csv"), "text/csv", toCsv(all.kind, all.items));
  };

  const noInstallation = session.data !== undefined && installations.length === 0;
  const walking = all?.status === "running" || all?.status === "waiting";
  const sentInstallation = session.data?.installations.find((i) => i.id === sent?.installation);

  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold tracking-tight">API explorer</h1>
          <p className="text-sm text-slate-600">
            Call any Web API method with your session&apos;s tokens, walk its cursor pages by hand or all at once, and see what went over the wire.
          </p>
        </div>
      </header>

      {session.error && (
        <p role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-800">
          {session.error.message}
        </p>
      )}

      {noInstallation && (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p>Install the app into a workspace first: the explorer calls methods with an installation&apos;s tokens.</p>
          <a href="/oauth/install" className={BUTTON.primary}>
            Add to workspace
          </a>
        </div>
      )}

      <RequestForm
        request={request}
        onChange={setRequest}
        installations={installations}
        onSend={sendForm}
        onFetchAll={startFetchAll}
        maxPages={maxPages}
        onMaxPagesChange={setMaxPages}
        busy={isMutating}
        walking={walking}
      />

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_25rem]">
        <div className="min-w-0 space-y-4">
          {all !== null && result !== null && (
            <SegmentedControl
              label="Walk"
              className="bg-slate-200/70 text-sm"
              value={mode}
              onChange={setMode}
              options={[
                { value: "page", label: `Page by page (page ${page})` },
                {
                  value: "all",
                  label: `Fetch all (${all.items.length.toLocaleString("en-US")} items, ${walking ? "walking" : all.status})`,
                },
              ]}
            />
          )}
          {showAll ? (
            <FetchAllPanel state={all} maxPages={walk?.maxPages ?? DEFAULT_MAX_PAGES} onCancel={fetchAll.cancel} onDownload={onDownload} />
          ) : (
            <PaginationPanel
              pageNumber={page}
              sentCursor={currentCursor(stack)}
              nextCursor={pageError ? null : nextCursor}
              pageCount={result && !pageError ? (pageCollection?.items.length ?? 0) : null}
              totalCount={total}
              error={pageError}
              errorMessage={pageError && typeof pageBody?.message === "string" ? pageBody.message : null}
              retryAt={result?.status === 429 && result.retryAfterS ? result.at + result.retryAfterS * 1000 : null}
              reinstallHref={pageError === "needs_reinstall" && sentInstallation ? reinstallHref(sentInstallation) : null}
              busy={isMutating}
              onNext={onNext}
              onRetry={onRetry}
              onPrevious={onPrevious}
              onStartOver={onStartOver}
            />
          )}

          <Panel
            title="Results"
            actions={
              <SegmentedControl
                label="Result view"
                className="bg-slate-100 text-sm"
                value={tab}
                onChange={setTab}
                options={[
                  { value: "table", label: "Table" },
                  { value: "json", label: "JSON" },
                ]}
              />
            }
          >
            {showAll ? (
              tab === "table" ? (
                <ResultsTable
                  key={`all-${all.runId}`}
                  kind={all.kind}
                  items={all.items}
                  version={all.pages}
                  emptyText={walking && all.pages === 0 ? "Waiting for the first page…" : "No items in this walk."}
                />
              ) : (
                <JsonViewer key={`all-${all.runId}`} value={allJson} label={all.method} />
              )
            ) : result ? (
              tab === "table" ? (
                pageCollection ? (
                  <ResultsTable key={`page-${result.at}`} kind={pageCollection.kind} items={pageCollection.items} version={0} />
                ) : (
                  <p className="text-sm text-slate-500">This response carries no list; see the JSON view.</p>
                )
              ) : (
                <div className="space-y-1">
                  <p className="text-xs text-slate-500">{formatBytes(result.bytes)} · nodes open on demand</p>
                  <JsonViewer key={`page-${result.at}`} value={result.body} label={result.method} />
                </div>
              )
            ) : (
              <p className="text-sm text-slate-500">
                Pick a method and press <strong>Send</strong> (or Ctrl+Enter) for one page, or <strong>Fetch all</strong> to walk every page on the server.
              </p>
            )}
          </Panel>
        </div>

        <aside className="min-w-0 space-y-4">
          {showAll && walk ? (
            <RequestInspector result={null} walk={{ method: walk.request.method, params: methodParams(walk.request), maxPages: walk.maxPages }} />
          ) : (
            <RequestInspector result={result} />
          )}
          <PageTimings timings={showAll ? all.timings : pageTimings} />
          <HistoryPanel
            entries={history.entries}
            onClear={history.clear}
            onPick={(entry) => {
              const restored: ExplorerRequest = {
                method: entry.method,
                installation: entry.installation,
                tokenKind: entry.tokenKind,
                cursor: entry.params.cursor ?? "",
                limit: entry.params.limit ?? "",
                extra: Object.entries(entry.params)
                  .filter(([k]) => k !== "cursor" && k !== "limit")
                  .map(([key, value]) => ({ key, value })),
              };
              setRequest(restored);
            }}
          />
        </aside>
      </div>
    </div>
  );
}
