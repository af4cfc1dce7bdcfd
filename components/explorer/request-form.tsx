"use client";

import { useEffect, useId, useRef, useState } from "react";
import { isValidMethod, SUGGESTED_METHODS, type ExplorerRequest, type ParamPair } from "@/lib/explorer/params";
import { BUTTON, INPUT } from "./ui";

export interface InstallationOption {
  id: string;
  label: string;
  hasBot: boolean;
  hasUser: boolean;
}

interface Props {
  request: ExplorerRequest;
  onChange(request: ExplorerRequest): void;
  installations: InstallationOption[];
  onSend(): void;
  onFetchAll(): void;
  maxPages: string;
  onMaxPagesChange(value: string): void;
  busy: boolean;
  walking: boolean;
}

/**
 * The shortcut as this platform writes it. Read after mount: the server cannot know the platform, and a
 * first client render that differed from the server's would be a hydration mismatch.
 */
function useSendShortcut(): string {
  const [shortcut, setShortcut] = useState("Ctrl+Enter");
  useEffect(() => {
    const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
    const platform = nav.userAgentData?.platform || nav.platform || "";
    if (/mac|iphone|ipad/i.test(platform)) setShortcut("⌘↵");
  }, []);
  return shortcut;
}

/** Method, token, parameters, and the two ways to call: Send (one call) and Fetch all (every page). */
export function RequestForm({ request, onChange, installations, onSend, onFetchAll, maxPages, onMaxPagesChange, busy, walking }: Props) {
  const ids = useId();
  const methodValid = isValidMethod(request.method);
  const canCall = methodValid && request.installation !== "";
  const selected = installations.find((i) => i.id === request.installation);
  const shortcut = useSendShortcut();
  const set = (patch: Partial<ExplorerRequest>) => onChange({ ...request, ...patch });
  const setPair = (i: number, patch: Partial<ParamPair>) =>
    set({ extra: request.extra.map((p, j) => (j === i ? { ...p, ...patch } : p)) });
  // A key per parameter row that survives removing the rows above it (an index key would hand one row's
  // focus and input state to the next). Rows replaced from outside (history, URL) keep keys by position.
  const rowKeys = useRef<{ pairs: readonly ParamPair[]; keys: number[] }>({ pairs: [], keys: [] });
  const nextRowKey = useRef(0);
  if (rowKeys.current.pairs !== request.extra) {
    if (rowKeys.current.keys.length !== request.extra.length) {
      rowKeys.current.keys = request.extra.map((_, i) => rowKeys.current.keys[i] ?? nextRowKey.current++);
    }
    rowKeys.current.pairs = request.extra;
  }
  const removePair = (i: number) => {
    rowKeys.current.keys = rowKeys.current.keys.filter((_, j) => j !== i);
    const extra = request.extra.filter((_, j) => j !== i);
    rowKeys.current.pairs = extra;
    set({ extra });
  };

  return (
    <form
      aria-label="Request"
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (canCall && !busy) onSend();
      }}
    >
      <div className="grid gap-3 md:grid-cols-[minmax(14rem,1.3fr)_minmax(12rem,1fr)_auto_auto]">
        <div>
          <label htmlFor={`${ids}-method`} className="mb-1 block text-xs font-medium text-slate-600">
            Method
          </label>
          <input
            id={`${ids}-method`}
            list={`${ids}-methods`}
            value={request.method}
            onChange={(e) => set({ method: e.target.value.trim() })}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={!methodValid}
            className={`${INPUT} font-mono ${methodValid ? "" : "border-rose-400 focus:border-rose-500 focus:ring-rose-500/30"}`}
          />
          <datalist id={`${ids}-methods`}>
            {SUGGESTED_METHODS.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          {!methodValid && <p className="mt-1 text-xs text-rose-600">Letters, digits and dots only, for example users.list.</p>}
        </div>
        <div>
          <label htmlFor={`${ids}-installation`} className="mb-1 block text-xs font-medium text-slate-600">
            Installation
          </label>
          <select
            id={`${ids}-installation`}
            value={request.installation}
            onChange={(e) => set({ installation: e.target.value })}
            className={INPUT}
          >
            {installations.length === 0 && <option value="">No installation yet</option>}
            {installations.map((i) => (
              <option key={i.id} value={i.id}>
                {i.label}
              </option>
            ))}
          </select>
        </div>
        <fieldset>
          <legend className="mb-1 block text-xs font-medium text-slate-600">Token</legend>
          <div className="flex rounded-md border border-slate-300 p-0.5 text-sm shadow-xs">
            {(["bot", "user"] as const).map((kind) => {
              const missing = selected !== undefined && !(kind === "bot" ? selected.hasBot : selected.hasUser);
              return (
                <label
                  key={kind}
                  title={missing ? `This installation has no ${kind} token` : undefined}
                  className={`rounded px-3 py-1 ${missing ? "cursor-not-allowed text-slate-300" : "cursor-pointer"} ${request.tokenKind === kind ? "bg-slate-900 text-white" : missing ? "" : "text-slate-600 hover:bg-slate-100"}`}
                >
                  <input
                    type="radio"
                    name={`${ids}-token`}
                    value={kind}
                    checked={request.tokenKind === kind}
                    disabled={missing}
                    onChange={() => set({ tokenKind: kind })}
                    className="sr-only"
                  />
                  {kind}
                </label>
              );
            })}
          </div>
        </fieldset>
        <div className="flex items-end gap-2">
          <button type="submit" className={BUTTON.primary} disabled={!canCall || busy} title={`Send (${shortcut})`}>
            Send
            <kbd aria-hidden className="rounded bg-emerald-700/60 px-1 font-mono text-[10px] font-normal">
              {shortcut}
            </kbd>
          </button>
          <button type="button" className={BUTTON.secondary} disabled={!canCall || walking} onClick={onFetchAll}>
            Fetch all
          </button>
        </div>
      </div>

      <div className="mt-4 grid gap-3 md:grid-cols-[minmax(0,2fr)_7rem_7rem]">
        <div>
          <label htmlFor={`${ids}-cursor`} className="mb-1 block text-xs font-medium text-slate-600">
            cursor
          </label>
          <input
            id={`${ids}-cursor`}
            value={request.cursor}
            onChange={(e) => set({ cursor: e.target.value })}
            placeholder="(first page)"
            spellCheck={false}
            autoComplete="off"
            className={`${INPUT} font-mono`}
          />
        </div>
        <div>
          <label htmlFor={`${ids}-limit`} className="mb-1 block text-xs font-medium text-slate-600">
            limit
          </label>
          <input
            id={`${ids}-limit`}
            value={request.limit}
            onChange={(e) => set({ limit: e.target.value })}
            inputMode="numeric"
            placeholder="default"
            className={`${INPUT} font-mono`}
          />
        </div>
        <div>
          <label htmlFor={`${ids}-max-pages`} className="mb-1 block text-xs font-medium text-slate-600">
            Page cap
          </label>
          <input
            id={`${ids}-max-pages`}
            value={maxPages}
            onChange={(e) => onMaxPagesChange(e.target.value.replace(/\D/g, ""))}
            inputMode="numeric"
            title="Fetch all stops after this many pages"
            className={`${INPUT} font-mono`}
          />
        </div>
      </div>

      <div className="mt-3 space-y-2">
        {request.extra.map((pair, i) => (
          <div key={rowKeys.current.keys[i]} className="grid grid-cols-[minmax(0,1fr)_minmax(0,2fr)_auto] gap-2">
            <input
              aria-label={`Parameter ${i + 1} name`}
              value={pair.key}
              onChange={(e) => setPair(i, { key: e.target.value })}
              placeholder="name"
              spellCheck={false}
              className={`${INPUT} font-mono`}
            />
            <input
              aria-label={`Parameter ${i + 1} value`}
              value={pair.value}
              onChange={(e) => setPair(i, { value: e.target.value })}
              placeholder="value"
              spellCheck={false}
              className={`${INPUT} font-mono`}
            />
            <button
              type="button"
              aria-label={`Remove parameter ${i + 1}`}
              onClick={() => removePair(i)}
              className={BUTTON.ghost}
            >
              ✕
            </button>
          </div>
        ))}
        <button type="button" onClick={() => set({ extra: [...request.extra, { key: "", value: "" }] })} className="text-sm font-medium text-emerald-700 hover:underline">
          + Add parameter
        </button>
        <p className="text-xs text-slate-500">
          Tokens never go in the form or the URL: the console sends the installation&apos;s {request.tokenKind} token from your session.
        </p>
      </div>
    </form>
  );
}
