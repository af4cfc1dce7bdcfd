"use client";

import { useMemo, useState } from "react";
import { BUTTON, INPUT } from "@/components/ui/primitives";
import type { CatalogMethod } from "@/lib/explorer/catalog";
import type { ExplorerRequest, ParamPair } from "@/lib/explorer/params";
import { formArguments } from "./argument-form";
import { initialRowKeys, rowKeysFor, withoutRow, type RequestEdit } from "./request-form-state";

/** The rows' keys (request-form-state.ts), kept across renders; `remove` drops a row's key with the row. */
function useRowKeys(pairs: readonly ParamPair[]) {
  const [rows, setRows] = useState(() => initialRowKeys(pairs));
  const current = rowKeysFor(rows, pairs);
  if (current !== rows) setRows(current);
  return { keys: current.keys, remove: (index: number, remaining: readonly ParamPair[]) => setRows(withoutRow(current, index, remaining)) };
}

/**
 * Free parameters: every pair the argument form does not show (a name outside the method's arguments, or a
 * row added here), each a name and a value, and the row to add one.
 */
export function FreeParameters({
  request,
  catalogMethod,
  onEdit,
}: {
  request: ExplorerRequest;
  catalogMethod: CatalogMethod | undefined;
  /** Applies an edit and answers the request it made. */
  onEdit: (edit: RequestEdit) => ExplorerRequest;
}) {
  const catalogArgNames = useMemo(() => new Set(catalogMethod ? formArguments(catalogMethod).map((a) => a.name) : []), [catalogMethod]);
  // With its index in the request, which the edits name it by.
  const free = request.extra.map((pair, index) => ({ pair, index })).filter(({ pair }) => pair.free === true || !catalogArgNames.has(pair.key));
  const rowKeys = useRowKeys(request.extra);
  const setPair = (index: number, patch: Partial<ParamPair>) => onEdit({ type: "parameter_edited", index, patch });
  const removePair = (index: number) => rowKeys.remove(index, onEdit({ type: "parameter_removed", index }).extra);

  return (
    <div className="space-y-2">
      {free.map(({ pair, index }) => (
        <div key={rowKeys.keys[index]} className="grid grid-cols-[minmax(0,1fr)_minmax(0,2fr)_auto] gap-2">
          <input
            aria-label={`Parameter ${index + 1} name`}
            value={pair.key}
            onChange={(e) => setPair(index, { key: e.target.value })}
            placeholder="name"
            spellCheck={false}
            className={`${INPUT} font-mono`}
          />
          <input
            aria-label={`Parameter ${index + 1} value`}
            value={pair.value}
            onChange={(e) => setPair(index, { value: e.target.value })}
            placeholder="value"
            spellCheck={false}
            className={`${INPUT} font-mono`}
          />
          <button type="button" aria-label={`Remove parameter ${index + 1}`} onClick={() => removePair(index)} className={BUTTON.ghost}>
            ✕
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onEdit({ type: "parameter_added" })} className="text-sm font-medium text-emerald-800 hover:underline">
        + Add parameter
      </button>
      <p className="text-xs text-slate-500">
        Tokens never go in the form or the URL: the console sends the installation&apos;s {request.tokenKind} token from your session.
      </p>
    </div>
  );
}
