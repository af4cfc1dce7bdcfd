"use client";

import { reinstallHref } from "@/lib/installations/universal/install-href";
import { LocalTime } from "@/components/local-time";
import { SegmentedControl } from "@/components/segmented-control";
import { BUTTON, Badge, Panel } from "@/components/ui/primitives";
import { DEFAULT_MAX_PAGES } from "@/lib/explorer/fetch-all-events";
import { requestParams } from "@/lib/explorer/params";
import { formatBytes } from "@/lib/format";
import type { ApiCallResult } from "@/lib/swr/use-api-call";
import { AnswerNotes } from "./answer-notes";
import { BlocksPreview } from "./blocks-preview";
import { CollectionsPanel } from "./collections-panel";
import { FetchAllPanel } from "./fetch-all-panel";
import { FetchAllJson, FetchAllModeLabel, FetchAllTable, FetchAllTimings } from "./fetch-all-views";
import { HistoryPanel } from "./history-panel";
import { JsonViewer } from "./json-viewer";
import { PageTimings } from "./page-timings";
import { PaginationPanel } from "./pagination-panel";
import { RequestForm } from "./request-form";
import { RequestInspector } from "./request-inspector";
import { ResultsTable } from "./results-table";
import { useExplorer } from "./use-explorer";

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
  const { session, form, page, all, view, history } = useExplorer();
  const { result, sent, sentInstallation } = page;
  const walkState = all.state;
  const reinstall = page.error === "needs_reinstall" && sentInstallation ? reinstallHref(sentInstallation) : null;

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

      {session.foreignInstallation && (
        <p role="alert" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          The link names installation <code className="font-mono">{session.foreignInstallation}</code>, which is not one of yours (another workspace&apos;s, or
          no longer on this console): nothing was sent.
          {!session.noInstallation && " The form holds one of yours instead; press Send to call with it."}
        </p>
      )}

      {session.noInstallation && (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p>Install the app into a workspace first: the explorer calls methods with an installation&apos;s tokens.</p>
          <a href="/oauth/install" className={BUTTON.primary}>
            Add to workspace
          </a>
        </div>
      )}

      <RequestForm
        request={form.request}
        onChange={form.setRequest}
        installations={form.installations}
        picker={form.picker}
        catalog={form.catalog}
        catalogMethod={form.catalogMethod}
        upstream={session.upstream}
        emulated={form.emulated}
        paginated={form.paginated}
        onSend={form.send}
        onFetchAll={form.startFetchAll}
        maxPages={form.maxPages}
        onMaxPagesChange={form.setMaxPages}
        busy={form.busy}
        typing={form.typing}
        walking={form.walking}
      />

      <BlocksPreview request={form.request} appName={form.installations.find((i) => i.id === form.request.installation)?.view.app.name ?? "Your app"} />

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_25rem]">
        <div className="min-w-0 space-y-4">
          {walkState !== null && result !== null && (
            <SegmentedControl
              label="Walk"
              className="bg-slate-200/70 text-sm"
              value={view.mode}
              onChange={view.setMode}
              options={[
                { value: "page", label: `Page by page (page ${page.number})` },
                { value: "all", label: <FetchAllModeLabel feed={all.feed} state={walkState} /> },
              ]}
            />
          )}
          {history.restored && (
            <p role="status" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
              Restored from history: <span className="font-mono">{history.restored.method}</span>
              {history.restored.summary ? (
                <>
                  {" "}
                  answered <span className="font-mono">{history.restored.summary}</span>
                </>
              ) : null}{" "}
              at <LocalTime at={history.restored.at} />.{" "}
              {history.restored.kind === "all" ? "Press Fetch all to walk it again." : "Press Send to call it again."}
            </p>
          )}
          {result && !view.showAll && sent && (
            <AnswerNotes
              body={result.body}
              method={sent.method}
              catalog={form.catalog}
              catalogMethod={page.sentCatalogMethod}
              upstream={session.upstream}
              emulated={form.emulated}
              tokenKind={sent.tokenKind}
              installation={sentInstallation}
              onUseMethod={form.chooseMethod}
            />
          )}
          {view.showAll && walkState ? (
            <FetchAllPanel
              feed={all.feed}
              state={walkState}
              maxPages={all.walk?.maxPages ?? DEFAULT_MAX_PAGES}
              onCancel={all.cancel}
              onDownload={all.onDownload}
            />
          ) : result && !page.sentPaginated ? (
            <AnswerStatus result={result} reinstall={reinstall} />
          ) : !result && !form.paginated ? null : (
            <PaginationPanel
              pageNumber={page.number}
              sentCursor={page.sentCursor}
              nextCursor={page.error ? null : page.nextCursor}
              pageCount={result && !page.error ? (page.collection?.items.length ?? 0) : null}
              totalCount={page.total}
              error={page.error}
              errorMessage={page.errorMessage}
              retryAt={result?.status === 429 && result.retryAfterS ? result.at + result.retryAfterS * 1000 : null}
              reinstallHref={reinstall}
              busy={form.busy}
              onNext={page.onNext}
              onRetry={page.onRetry}
              onPrevious={page.onPrevious}
              onStartOver={page.onStartOver}
            />
          )}

          <Panel
            title="Results"
            actions={
              <SegmentedControl
                label="Result view"
                className="bg-slate-100 text-sm"
                value={view.tab}
                onChange={view.setTab}
                options={[
                  { value: "table", label: "Table" },
                  { value: "json", label: "JSON" },
                ]}
              />
            }
          >
            {view.showAll && walkState ? (
              view.tab === "table" ? (
                <FetchAllTable key={`all-${walkState.runId}`} feed={all.feed} state={walkState} />
              ) : (
                <FetchAllJson key={`all-${walkState.runId}`} feed={all.feed} state={walkState} />
              )
            ) : result ? (
              view.tab === "table" ? (
                page.collection ? (
                  <ResultsTable key={`page-${result.at}`} kind={page.collection.kind} items={page.collection.items} version={0} />
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
          {view.showAll && all.walk ? (
            <RequestInspector result={null} walk={{ method: all.walk.request.method, params: requestParams(all.walk.request), maxPages: all.walk.maxPages }} />
          ) : (
            <RequestInspector result={result} catalogMethod={page.sentCatalogMethod} />
          )}
          {view.showAll && walkState ? <FetchAllTimings feed={all.feed} state={walkState} /> : page.sentPaginated && <PageTimings timings={page.timings} />}
          <HistoryPanel entries={history.entries} error={history.error} onPick={history.restore} />
          <CollectionsPanel
            request={form.request}
            installation={form.installations.find((i) => i.id === form.request.installation)}
            onOpenRequest={form.setRequest}
          />
        </aside>
      </div>
    </div>
  );
}
