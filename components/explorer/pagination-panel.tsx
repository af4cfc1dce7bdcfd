"use client";

import { useNow } from "@/components/use-now";
import { describeCursor } from "@/lib/explorer/cursor";
import { BUTTON, Badge, Panel } from "@/components/ui/primitives";
import { formatCount } from "@/lib/format";

interface Props {
  pageNumber: number;
  /** The cursor that fetched this page ("" for the first). */
  sentCursor: string;
  /** response_metadata.next_cursor of this page, null at the end. */
  nextCursor: string | null;
  /** Items on this page, and through this page since the walk started. */
  pageCount: number | null;
  totalCount: number;
  error: string | null;
  /** The console's own explanation, when the console (not the platform) refused the call. */
  errorMessage: string | null;
  /** After a 429: when its Retry-After runs out (epoch ms). */
  retryAt: number | null;
  /** The link that installs the app again, when the installation needs it. */
  reinstallHref: string | null;
  busy: boolean;
  onNext(): void;
  /** Sends the same request again (after a 429). */
  onRetry(): void;
  onPrevious(): void;
  onStartOver(): void;
}

const items = (n: number) => (n === 1 ? "item" : "items");

function CursorLine({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="grid grid-cols-[6.5rem_minmax(0,1fr)] items-baseline gap-2">
      <dt className="text-xs font-medium text-slate-500" title={hint}>
        {label}
      </dt>
      <dd className="break-all font-mono text-sm text-slate-900" data-testid={`cursor-${label.replace(/\s+/g, "-")}`}>
        {value}
      </dd>
    </div>
  );
}

/** The walk by hand: where we are, the cursor that leads on (three ways), and the buttons to move. */
export function PaginationPanel({
  pageNumber,
  sentCursor,
  nextCursor,
  pageCount,
  totalCount,
  error,
  errorMessage,
  retryAt,
  reinstallHref,
  busy,
  onNext,
  onRetry,
  onPrevious,
  onStartOver,
}: Props) {
  const next = nextCursor ? describeCursor(nextCursor) : null;
  const invalidCursor = error === "invalid_cursor";
  const now = useNow(250, retryAt !== null);
  const retryIn = retryAt !== null && now !== null ? Math.max(0, Math.ceil((retryAt - now) / 1000)) : null;
  const waiting = retryAt !== null && (retryIn === null || retryIn > 0);
  return (
    <Panel
      title="Pagination"
      actions={
        <>
          <button type="button" className={BUTTON.secondary} onClick={onPrevious} disabled={pageNumber <= 1 || busy}>
            <span aria-hidden>←</span> Previous page
          </button>
          <button type="button" className={BUTTON.primary} onClick={onNext} disabled={!nextCursor || busy || error !== null || waiting}>
            Next page <span aria-hidden>→</span>
          </button>
        </>
      }
    >
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <p className="text-2xl font-semibold tabular-nums text-slate-900" data-testid="page-number">
          Page {pageNumber}
        </p>
        {pageCount !== null && (
          <p className="text-sm text-slate-600" data-testid="page-items">
            <span className="font-mono tabular-nums text-slate-900">{formatCount(pageCount)}</span> {items(pageCount)} on this page
            {pageNumber > 1 && (
              <>
                {" "}
                · <span className="font-mono tabular-nums text-slate-900">{formatCount(totalCount)}</span> {items(totalCount)} on pages 1 to {pageNumber}
              </>
            )}
          </p>
        )}
        {pageCount !== null && !error && (nextCursor ? <Badge tone="neutral">more pages</Badge> : <Badge tone="ok">end of list</Badge>)}
      </div>

      {error && (
        <div
          role="alert"
          className="mt-3 flex flex-wrap items-center justify-between gap-3 rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800"
        >
          {errorMessage ? (
            <p>
              The console refused the call (<code className="font-mono font-semibold">{error}</code>): {errorMessage}
            </p>
          ) : (
            <p>
              The platform answered <code className="font-mono font-semibold">{error}</code>
              {invalidCursor && ": the cursor is malformed, tampered with, or expired. Cursors are short-lived; start the walk again."}
            </p>
          )}
          {retryAt !== null && (
            <p role="status" className="basis-full">
              {waiting ? (
                <>
                  Rate limited: retry in{" "}
                  <strong className="font-mono tabular-nums" data-testid="send-retry-countdown">
                    {retryIn ?? "…"} s
                  </strong>
                  .
                </>
              ) : (
                "The Retry-After wait is over."
              )}
            </p>
          )}
          {retryAt !== null && (
            <button type="button" className={BUTTON.secondary} onClick={onRetry} disabled={waiting || busy}>
              Retry
            </button>
          )}
          {reinstallHref && (
            <a href={reinstallHref} className={BUTTON.danger}>
              Reinstall
            </a>
          )}
          {invalidCursor && (
            <button type="button" className={BUTTON.danger} onClick={onStartOver}>
              Start over
            </button>
          )}
        </div>
      )}

      <div className="mt-4 space-y-1.5 rounded-md bg-slate-50 p-3">
        <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">response_metadata.next_cursor</p>
        {next ? (
          <dl className="space-y-1.5">
            <CursorLine label="as received" value={next.received} />
            <CursorLine label="on the wire" value={next.wire} hint="Form-encoded: = travels as %3D" />
            <CursorLine
              label="decoded"
              value={
                next.decoded === null
                  ? "(opaque: not base64 of readable text)"
                  : next.opaqueBytes > 0
                    ? `${next.decoded}  + ${next.opaqueBytes} bytes of binary (signature, issue time)`
                    : next.decoded
              }
            />
          </dl>
        ) : (
          <p className="font-mono text-sm text-slate-500">{pageCount === null ? "—" : "empty: this is the last page"}</p>
        )}
        {sentCursor && (
          <dl className="mt-2 border-t border-slate-200 pt-2">
            <CursorLine label="sent cursor" value={sentCursor} hint="The cursor that fetched this page" />
          </dl>
        )}
      </div>
    </Panel>
  );
}
