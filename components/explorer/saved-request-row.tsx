"use client";

import { useId, useState } from "react";
import type { Binding, SavedRequestView } from "@/lib/collections/universal/model";
import { BUTTON, INPUT } from "@/components/ui/primitives";

const SMALL = "!px-2 !py-0.5 text-xs";

/** A step's bindings: each argument filled from an earlier step's answer, and a form to add one. */
function Bindings({ request, editable, onChange }: { request: SavedRequestView; editable: boolean; onChange(bindings: Binding[]): Promise<void> }) {
  const ids = { param: useId(), step: useId(), path: useId() };
  const [param, setParam] = useState("");
  const [step, setStep] = useState("1");
  const [path, setPath] = useState("");
  return (
    <div className="space-y-1">
      {request.bindings.length > 0 && (
        <ul aria-label={`Values ${request.name} takes from earlier steps`} className="space-y-0.5">
          {request.bindings.map((b, i) => (
            <li key={`${b.param}-${i}`} className="flex flex-wrap items-center gap-2 font-mono text-slate-700">
              {b.param} ← step {b.step}&apos;s {b.path}
              {editable && (
                <button type="button" className={`${BUTTON.ghost} ${SMALL}`} onClick={() => void onChange(request.bindings.filter((_, j) => j !== i))}>
                  Remove<span className="sr-only"> the value of {b.param}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {editable && (
        <form
          className="flex flex-wrap items-end gap-2"
          aria-label={`Take a value into ${request.name}`}
          onSubmit={(event) => {
            event.preventDefault();
            void onChange([...request.bindings, { param: param.trim(), step: Number(step), path: path.trim() }]).then(() => {
              setParam("");
              setPath("");
            });
          }}
        >
          <span>
            <label htmlFor={ids.param} className="block text-[11px] text-slate-600">
              Argument
            </label>
            <input id={ids.param} className={`${INPUT} !w-28 !py-1 text-xs`} value={param} onChange={(e) => setParam(e.target.value)} />
          </span>
          <span>
            <label htmlFor={ids.step} className="block text-[11px] text-slate-600">
              from step
            </label>
            <input id={ids.step} type="number" min={1} className={`${INPUT} !w-16 !py-1 text-xs`} value={step} onChange={(e) => setStep(e.target.value)} />
          </span>
          <span>
            <label htmlFor={ids.path} className="block text-[11px] text-slate-600">
              at path
            </label>
            <input
              id={ids.path}
              className={`${INPUT} !w-32 !py-1 font-mono text-xs`}
              placeholder="channel.id"
              value={path}
              onChange={(e) => setPath(e.target.value)}
            />
          </span>
          <button type="submit" className={`${BUTTON.secondary} ${SMALL}`} disabled={param.trim() === "" || path.trim() === "" || !(Number(step) >= 1)}>
            Add value
          </button>
        </form>
      )}
    </div>
  );
}

/** One saved request of an opened collection: open it in the form, run it, and (when editable) move, rename, delete and bind it. */
export function SavedRequestRow({
  request,
  index,
  count,
  editable,
  busy,
  onOpen,
  onRun,
  onMove,
  onRename,
  onDelete,
  onBindings,
}: {
  request: SavedRequestView;
  index: number;
  count: number;
  editable: boolean;
  busy: boolean;
  onOpen(): void;
  onRun(): void;
  onMove(by: -1 | 1): void;
  onRename(name: string): Promise<void>;
  onDelete(): void;
  onBindings(bindings: Binding[]): Promise<void>;
}) {
  const renameId = useId();
  const [renaming, setRenaming] = useState<string | null>(null);
  return (
    <li className="space-y-1 rounded-md border border-slate-200 p-2 text-xs">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="tabular-nums text-slate-500">{index + 1}.</span>
        {renaming === null ? (
          <span className="font-semibold text-slate-800">{request.name}</span>
        ) : (
          <form
            className="flex items-center gap-1"
            onSubmit={(event) => {
              event.preventDefault();
              void onRename(renaming).then(() => setRenaming(null));
            }}
          >
            <label htmlFor={renameId} className="sr-only">
              New name of {request.name}
            </label>
            <input
              id={renameId}
              className={`${INPUT} !py-0.5 text-xs`}
              value={renaming}
              maxLength={100}
              onChange={(e) => setRenaming(e.target.value)}
              autoFocus
            />
            <button type="submit" className={`${BUTTON.secondary} ${SMALL}`} disabled={renaming.trim() === ""}>
              Rename
            </button>
            <button type="button" className={`${BUTTON.ghost} ${SMALL}`} onClick={() => setRenaming(null)}>
              Cancel
            </button>
          </form>
        )}
        <span className="font-mono text-slate-600">
          {request.httpMethod === "POST" ? `POST${request.encoding === "json" ? " JSON" : ""} ` : ""}
          {request.method}
          {request.tokenKind === "user" ? " · user token" : ""}
        </span>
      </div>
      <div className="flex flex-wrap items-center gap-1">
        <button type="button" className={`${BUTTON.secondary} ${SMALL}`} onClick={onOpen}>
          Open<span className="sr-only"> {request.name} in the form</span>
        </button>
        <button type="button" className={`${BUTTON.secondary} ${SMALL}`} onClick={onRun} disabled={busy}>
          Run<span className="sr-only"> {request.name}</span>
        </button>
        {editable && (
          <>
            <button
              type="button"
              className={`${BUTTON.ghost} ${SMALL}`}
              onClick={() => onMove(-1)}
              disabled={busy || index === 0}
              aria-label={`Move ${request.name} up`}
            >
              ↑ Up
            </button>
            <button
              type="button"
              className={`${BUTTON.ghost} ${SMALL}`}
              onClick={() => onMove(1)}
              disabled={busy || index === count - 1}
              aria-label={`Move ${request.name} down`}
            >
              ↓ Down
            </button>
            <button type="button" className={`${BUTTON.ghost} ${SMALL}`} onClick={() => setRenaming(request.name)} aria-label={`Rename ${request.name}`}>
              Rename
            </button>
            <button type="button" className={`${BUTTON.ghost} ${SMALL} !text-rose-700`} onClick={onDelete} aria-label={`Delete ${request.name}`}>
              Delete
            </button>
          </>
        )}
      </div>
      {request.args.length > 0 && (
        <p className="truncate font-mono text-slate-600">
          {request.args.map((a) => `${a.key}=${a.value.length > 24 ? `${a.value.slice(0, 24)}…` : a.value}`).join(" ")}
        </p>
      )}
      {(editable || request.bindings.length > 0) && (
        <details open={request.bindings.length > 0}>
          <summary className="cursor-pointer text-slate-700">Values from earlier steps ({request.bindings.length})</summary>
          <Bindings request={request} editable={editable} onChange={onBindings} />
        </details>
      )}
    </li>
  );
}
