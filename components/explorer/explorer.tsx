"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { reinstallHref } from "@/components/installations/install-href";
import { LocalTime } from "@/components/local-time";
import { SegmentedControl } from "@/components/segmented-control";
import { countOfList, summarizeAnswer } from "@/lib/explorer/answer-summary";
import { findMethod, isPaginated } from "@/lib/explorer/catalog";
import { defaultInstallation } from "@/lib/explorer/default-installation";
import { exportFileName, toCsv, toJsonExport } from "@/lib/explorer/export";
import { DEFAULT_MAX_PAGES } from "@/lib/explorer/fetch-all-events";
import { findCollection } from "@/lib/explorer/items";
import { requestFromHistory } from "@/lib/explorer/history";
import { catalogShape, NOTHING_STATED, withMethodDefaults } from "@/lib/explorer/method-defaults";
import { initialPageWalk, itemsThroughPage, pageWalkReducer } from "@/lib/explorer/page-walk";
import { currentCursor, pageNumber, popPage, pushPage, stackForSend, START, type PageStack } from "@/lib/explorer/pagination";
import {
  buildCall,
  callQuery,
  fromSearchParams,
  isValidMethod,
  methodParams,
  statedInLink,
  toSearchParams,
  type ExplorerRequest,
  type StatedFields,
} from "@/lib/explorer/params";
import { readNextCursor } from "@/lib/platform/cursor";
import { useApiCall, type ApiCallResult } from "@/lib/swr/use-api-call";
import { useEmulatorMethods } from "@/lib/swr/use-emulator-methods";
import { useFetchAll } from "@/lib/swr/use-fetch-all";
import { useMethodCatalog } from "@/lib/swr/use-method-catalog";
import { useRequestHistory } from "@/lib/swr/use-request-history";
import type { HistoryEntry } from "@/lib/explorer/history";
import { useSession } from "@/lib/swr/use-session";
import { MAX_PAGE_SIZE } from "@/lib/installations/universal/list-query";
import { AnswerNotes } from "./answer-notes";
import { FetchAllPanel } from "./fetch-all-panel";
import { FetchAllJson, FetchAllModeLabel, FetchAllTable, FetchAllTimings } from "./fetch-all-views";
import { HistoryPanel } from "./history-panel";
import { JsonViewer } from "./json-viewer";
import { PageTimings } from "./page-timings";
import { PaginationPanel } from "./pagination-panel";
import { RequestForm, type InstallationOption } from "./request-form";
import { RequestInspector } from "./request-inspector";
import { ResultsTable } from "./results-table";
import { BUTTON, Badge, Panel } from "@/components/ui/primitives";
import { formatBytes } from "@/lib/format";

/** Methods safe to call again on reload: reads only. */
const READ_ONLY_METHOD = /\.(list|info|history|replies|members)$|^auth\.test$/;

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The outcome of a call to a method that does not page: its status, and where its answer is. */
function AnswerStatus({ result, reinstall }: { result: ApiCallResult; reinstall: string | null }) {
  const body = result.body as { ok?: unknown; error?: unknown; message?: unknown; warning?: unknown };
  const ok = body.ok === true;
  return (
    <Panel title="Answer">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge tone={ok ? "ok" : result.status === 429 ? "warn" : "error"}>
          {ok ? "ok: true" : `ok: false · ${typeof body.error === "string" ? body.error : `HTTP ${result.status}`}`}
        </Badge>
        {typeof body.warning === "string" && <Badge tone="warn">warning: {body.warning}</Badge>}
        <span className="text-slate-600">{formatBytes(result.bytes)}; the whole answer is in the JSON view below.</span>
        {!ok && typeof body.message === "string" && <p className="w-full text-slate-700">{body.message}</p>}
        {reinstall && (
          <a href={reinstall} className={BUTTON.primary}>
            Reinstall
          </a>
        )}
      </div>
    </Panel>
  );
}

/** The explorer: one request form, a walk by hand or a walk of everything, and what went over the wire. */
export function Explorer() {
  const search = useSearchParams();
  const [opened] = useState(() => {
    const link = new URLSearchParams(search.toString());
    return { request: fromSearchParams(link), stated: statedInLink(link) };
  });
  const [request, setRequest] = useState<ExplorerRequest>(opened.request);
  // A method that came from the link, the history or a suggestion, until its catalog entry has filled what
  // they did not state (its verb, its paging): see method-defaults.ts.
  const [arrival, setArrival] = useState<{ method: string; stated: StatedFields } | null>({ method: opened.request.method, stated: opened.stated });
  const [maxPages, setMaxPages] = useState(String(DEFAULT_MAX_PAGES));
  const [pageWalk, dispatchWalk] = useReducer(pageWalkReducer<ApiCallResult>, undefined, initialPageWalk<ApiCallResult>);
  const { stack, answer: result, sent, timings: pageTimings } = pageWalk;
  // The request and page cap of the last Fetch all, as they were when it started.
  const [walk, setWalk] = useState<{ request: ExplorerRequest; maxPages: number } | null>(null);
  const [mode, setMode] = useState<"page" | "all">("page");
  const [tab, setTab] = useState<"table" | "json">("table");
  const { trigger, isMutating } = useApiCall();
  const fetchAll = useFetchAll();
  const history = useRequestHistory();
  // The installations to call with: the most one page of the list holds (the dashboard pages through the rest).
  const session = useSession({ limit: MAX_PAGE_SIZE });
  const { data: catalog } = useMethodCatalog();
  const { data: emulated } = useEmulatorMethods(session.data?.upstream.kind);
  // A history entry put back in the form: its answer's summary is shown until the next call.
  const [restored, setRestored] = useState<HistoryEntry | null>(null);

  const installations: InstallationOption[] = useMemo(
    () =>
      (session.data?.installations ?? []).map((i) => ({
        id: i.id,
        label: `${i.name} (${i.team.id})${i.state === "needs_reinstall" ? " · needs reinstall" : ""}`,
        view: i,
      })),
    [session.data],
  );

  const catalogMethod = catalog ? findMethod(catalog, request.method) : undefined;
  // Paginated as the catalog says, or (for a method outside it) as the emulator describes it.
  const paginated = catalogMethod ? isPaginated(catalogMethod) : (emulated?.get(request.method)?.paginated ?? false);
  const methodKnown = catalogMethod !== undefined || (catalog !== undefined && (session.data?.upstream.kind !== "emulator" || emulated !== undefined));
  const argTypes = useMemo(() => new Map((catalogMethod?.args ?? []).map((a) => [a.name, a.type] as const)), [catalogMethod]);

  useEffect(() => {
    if (!arrival) return;
    if (arrival.method !== request.method) {
      // Another method was chosen meanwhile: it brought its own defaults.
      setArrival(null);
      return;
    }
    if (!methodKnown) return;
    const shape = catalogMethod ? catalogShape(catalogMethod) : { paginated, transport: null };
    setRequest((r) => (r.method === arrival.method ? withMethodDefaults(r, shape, arrival.stated) : r));
    setArrival(null);
  }, [arrival, request.method, methodKnown, catalogMethod, paginated]);

  // After a history entry is put back, the page's URL says it, once its defaults are in.
  const urlFollowsRequest = useRef(false);
  useEffect(() => {
    if (arrival || !urlFollowsRequest.current) return;
    urlFollowsRequest.current = false;
    window.history.replaceState(null, "", `?${toSearchParams(request).toString()}`);
  }, [arrival, request]);

  // The installation named in the URL, or the first one that works.
  useEffect(() => {
    if (installations.length === 0) return;
    const fallback = defaultInstallation(installations.map((i) => i.view))!.id;
    setRequest((r) => (installations.some((i) => i.id === r.installation) ? r : { ...r, installation: fallback }));
  }, [installations, request.installation]);

  // Calls made before a history entry was put back: their answers go to the history, not on the page.
  const generation = useRef(0);
  const send = useCallback(
    async (base: ExplorerRequest, cursor: string, nextStack: PageStack) => {
      const sentIn = generation.current;
      const sending = { ...base, cursor };
      if (!paginatedRef.current) {
        // The hidden cursor and limit fields of a method that does not page are not sent.
        sending.cursor = "";
        sending.limit = "";
      }
      setRequest(sending);
      setMode("page");
      window.history.replaceState(null, "", `?${toSearchParams(sending).toString()}`);
      const answer = await trigger(buildCall(sending, argTypes));
      const collection = findCollection(answer.body, sending.method);
      const count = collection?.items.length;
      const body = answer.body as { ok?: unknown; error?: unknown };
      if (sentIn === generation.current) {
        dispatchWalk({ type: "answered", request: sending, stack: nextStack, answer, count, upstreamMs: answer.upstreamMs });
        setRestored(null);
        // A list opens on its table; anything else (auth.test, chat.postMessage, an error) on its JSON.
        setTab(collection ? "table" : "json");
      }
      history.add({
        id: `${answer.at}-${Math.random().toString(36).slice(2, 8)}`,
        at: answer.at,
        method: sending.method,
        installation: sending.installation,
        tokenKind: sending.tokenKind,
        httpMethod: sending.httpMethod,
        encoding: sending.encoding,
        params: methodParams(sending),
        kind: "call",
        status: answer.status,
        ok: body?.ok === true,
        ...(typeof body?.error === "string" ? { error: body.error } : {}),
        ms: answer.upstreamMs ?? answer.roundTripMs,
        ...(count !== undefined ? { count } : {}),
        summary: summarizeAnswer(answer.status, answer.body, answer.retryAfterS),
      });
    },
    [trigger, history, argTypes],
  );

  // Until the catalog has said whether the method pages, what the request holds is sent as it is.
  const paginatedRef = useRef(true);
  useEffect(() => {
    paginatedRef.current = !methodKnown || paginated;
  }, [methodKnown, paginated]);

  const canSend = isValidMethod(request.method) && request.installation !== "" && !isMutating;
  const sendForm = useCallback(() => {
    if (!canSend) return;
    const from = stackForSend(stack, sent, request);
    if (!from.continues) dispatchWalk({ type: "restart" });
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
    dispatchWalk({ type: "restart" });
    void send(sent ?? request, "", START);
  };

  const startFetchAll = () => {
    setRestored(null);
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
    if (autoSent.current || !openedWithMethod.current || !methodKnown || arrival || request.installation === "" || !READ_ONLY_METHOD.test(request.method))
      return;
    if (!installations.some((i) => i.id === request.installation)) return;
    autoSent.current = true;
    sendForm();
  }, [installations, request, sendForm, methodKnown, arrival]);

  const all = fetchAll.state;
  const showAll = mode === "all" && all !== null;

  // A Fetch all goes into the history once it ends (done, cancelled or failed), as a walk of its own.
  const recordedWalk = useRef<number | null>(null);
  useEffect(() => {
    if (!all || !walk || all.status === "running" || all.status === "waiting" || recordedWalk.current === all.runId) return;
    recordedWalk.current = all.runId;
    history.add({
      id: `all-${all.runId}-${all.startedAt}`,
      at: all.startedAt,
      method: all.method,
      installation: walk.request.installation,
      tokenKind: walk.request.tokenKind,
      httpMethod: "GET",
      params: { ...methodParams(walk.request), max_pages: String(walk.maxPages) },
      kind: "all",
      status: all.status === "error" ? 0 : 200,
      ok: all.status !== "error",
      ...(all.error ? { error: all.error } : {}),
      ms: (all.endedAt ?? Date.now()) - all.startedAt,
      count: all.count,
      pages: all.pages,
      summary: `Fetch all ${all.status}${all.capped ? " at the page cap" : ""} · ${countOfList(all.count, all.field)} in ${all.pages} ${all.pages === 1 ? "page" : "pages"}`,
    });
  }, [all, all?.status, walk, history]);
  const pageBody = result?.body as { ok?: unknown; error?: unknown; message?: unknown } | undefined;
  const pageError = pageBody && pageBody.ok !== true ? (typeof pageBody.error === "string" ? pageBody.error : `http_${result?.status}`) : null;
  const pageCollection = useMemo(() => (result ? findCollection(result.body, result.method) : null), [result]);
  const page = pageNumber(stack);
  const total = itemsThroughPage(pageWalk);

  const onDownload = (format: "json" | "csv") => {
    if (!all) return;
    if (format === "json") download(exportFileName(all.method, "json"), "application/json", toJsonExport(all.method, all.field, all.items, all.pages));
    else download(exportFileName(all.method, "csv"), "text/csv", toCsv(all.kind, all.items));
  };

  const noInstallation = session.data !== undefined && installations.length === 0;
  const walking = all?.status === "running" || all?.status === "waiting";

  // A call put back from the history replaces what the page showed: no answer, wire record or snippet of
  // another call stays beside it, and nothing is sent until Send (a walk still running is cancelled).
  const restoreFromHistory = (entry: HistoryEntry) => {
    const { request: next, stated, maxPages: cap } = requestFromHistory(entry);
    generation.current += 1;
    if (walking) fetchAll.cancel();
    dispatchWalk({ type: "cleared" });
    setMode("page");
    if (cap) setMaxPages(cap);
    setRequest(next);
    setArrival({ method: next.method, stated });
    urlFollowsRequest.current = true;
    setRestored(entry);
  };

  const sentInstallation = session.data?.installations.find((i) => i.id === sent?.installation);
  const sentCatalogMethod = catalog && sent ? findMethod(catalog, sent.method) : undefined;
  // The walk by hand is for paginated methods; any other answer gets a line of status instead.
  const sentPaginated = sent
    ? sentCatalogMethod
      ? isPaginated(sentCatalogMethod)
      : (emulated?.get(sent.method)?.paginated ?? pageCollection !== null)
    : paginated;

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
        catalog={catalog}
        catalogMethod={catalogMethod}
        upstream={session.data?.upstream.kind}
        emulated={emulated}
        paginated={paginated}
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
                { value: "all", label: <FetchAllModeLabel feed={fetchAll.feed} state={all} /> },
              ]}
            />
          )}
          {restored && (
            <p role="status" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
              Restored from history: <span className="font-mono">{restored.method}</span>
              {restored.summary ? (
                <>
                  {" "}
                  answered <span className="font-mono">{restored.summary}</span>
                </>
              ) : null}{" "}
              at <LocalTime at={restored.at} />. {restored.kind === "all" ? "Press Fetch all to walk it again." : "Press Send to call it again."}
            </p>
          )}
          {result && !showAll && sent && (
            <AnswerNotes
              body={result.body}
              method={sent.method}
              catalog={catalog}
              catalogMethod={sentCatalogMethod}
              upstream={session.data?.upstream.kind}
              emulated={emulated}
              tokenKind={sent.tokenKind}
              installation={sentInstallation}
              onUseMethod={(name) => {
                setRequest((r) => ({ ...r, method: name, cursor: "" }));
                setArrival({ method: name, stated: NOTHING_STATED });
              }}
            />
          )}
          {showAll ? (
            <FetchAllPanel feed={fetchAll.feed} state={all} maxPages={walk?.maxPages ?? DEFAULT_MAX_PAGES} onCancel={fetchAll.cancel} onDownload={onDownload} />
          ) : result && !sentPaginated ? (
            <AnswerStatus result={result} reinstall={pageError === "needs_reinstall" && sentInstallation ? reinstallHref(sentInstallation) : null} />
          ) : !result && !paginated ? null : (
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
                <FetchAllTable key={`all-${all.runId}`} feed={fetchAll.feed} state={all} />
              ) : (
                <FetchAllJson key={`all-${all.runId}`} feed={fetchAll.feed} state={all} />
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
            <RequestInspector result={result} catalogMethod={sentCatalogMethod} />
          )}
          {showAll ? <FetchAllTimings feed={fetchAll.feed} state={all} /> : sentPaginated && <PageTimings timings={pageTimings} />}
          <HistoryPanel entries={history.entries} onClear={history.clear} onPick={restoreFromHistory} />
        </aside>
      </div>
    </div>
  );
}
