"use client";

import { INPUT } from "@/components/ui/primitives";
import type { RequestEdit } from "./request-form-state";

/** A paginated method's cursor and limit, and the page cap Fetch all stops at. */
export function PagingFields({
  id,
  cursor,
  limit,
  maxPages,
  onEdit,
  onMaxPagesChange,
}: {
  id: string;
  cursor: string;
  limit: string;
  maxPages: string;
  onEdit: (edit: RequestEdit) => void;
  onMaxPagesChange: (value: string) => void;
}) {
  return (
    <div className="grid gap-3 md:grid-cols-[minmax(0,2fr)_7rem_7rem]">
      <div>
        <label htmlFor={`${id}-cursor`} className="mb-1 block text-xs font-medium text-slate-600">
          cursor
        </label>
        <input
          id={`${id}-cursor`}
          value={cursor}
          onChange={(e) => onEdit({ type: "cursor_typed", cursor: e.target.value })}
          placeholder="(first page)"
          spellCheck={false}
          autoComplete="off"
          className={`${INPUT} font-mono`}
        />
      </div>
      <div>
        <label htmlFor={`${id}-limit`} className="mb-1 block text-xs font-medium text-slate-600">
          limit
        </label>
        <input
          id={`${id}-limit`}
          value={limit}
          onChange={(e) => onEdit({ type: "limit_typed", limit: e.target.value })}
          inputMode="numeric"
          placeholder="default"
          className={`${INPUT} font-mono`}
        />
      </div>
      <div>
        <label htmlFor={`${id}-max-pages`} className="mb-1 block text-xs font-medium text-slate-600">
          Page cap
        </label>
        <input
          id={`${id}-max-pages`}
          value={maxPages}
          onChange={(e) => onMaxPagesChange(e.target.value.replace(/\D/g, ""))}
          inputMode="numeric"
          title="Fetch all stops after this many pages"
          className={`${INPUT} font-mono`}
        />
      </div>
    </div>
  );
}
