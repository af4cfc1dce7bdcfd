"use client";

import { useId, useMemo, useState, useSyncExternalStore } from "react";
import { reinstallHref } from "@/lib/installations/universal/install-href";
import { SegmentedControl } from "@/components/segmented-control";
import { findMethod, nearestMethodNames, scopeCheck, type CatalogMethod } from "@/lib/explorer/catalog";
import { catalogShape, withMethodDefaults } from "@/lib/explorer/method-defaults";
import { answeredMethods, type UpstreamKind } from "@/lib/explorer/method-suggestions";
import { isValidMethod, withParam, type ExplorerRequest, type ParamPair } from "@/lib/explorer/params";
import type { InstallationView } from "@/lib/installations/universal/view";
import type { EmulatedMethod } from "@/lib/swr/use-emulator-methods";
import { ArgumentForm, formArguments } from "./argument-form";
import { MethodDetails } from "./method-details";
import { MethodPicker } from "./method-picker";
import { BUTTON, INPUT } from "@/components/ui/primitives";

export interface InstallationOption {
  id: string;
  label: string;
  view: InstallationView;
}

interface Props {
  request: ExplorerRequest;
  onChange(request: ExplorerRequest): void;
  installations: InstallationOption[];
  /** The platform's method catalog, once loaded. */
  catalog: readonly CatalogMethod[] | undefined;
  /** The request's method in the catalog (undefined while loading or when it is not there). */
  catalogMethod: CatalogMethod | undefined;
  /** Which upstream the session calls (undefined while the session loads). */
  upstream: UpstreamKind | undefined;
  /** The embedded emulator's own list of its methods (undefined against the real platform). */
  emulated: ReadonlyMap<string, EmulatedMethod> | undefined;
  /** Whether the method is cursor-paginated (the catalog says so, or the emulator does). */
  paginated: boolean;
  onSend(): void;
  onFetchAll(): void;
  maxPages: string;
  onMaxPagesChange(value: string): void;
  busy: boolean;
  walking: boolean;
}

type Transport = "GET" | "POST-form" | "POST-json";

const transportOf = (r: ExplorerRequest): Transport => (r.httpMethod === "GET" ? "GET" : r.encoding === "json" ? "POST-json" : "POST-form");

const DEFAULT_SHORTCUT = "Ctrl+Enter";
const noSubscription = () => () => {};

function platformShortcut(): string {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  const platform = nav.userAgentData?.platform || nav.platform || "";
  return /mac|iphone|ipad/i.test(platform) ? "⌘↵" : DEFAULT_SHORTCUT;
}

/**
 * The shortcut as this platform writes it. The server cannot know the platform, so the page hydrates with
 * the default (a first client render that differed from the server's would be a mismatch), then reads it.
 */
function useSendShortcut(): string {
  return useSyncExternalStore(noSubscription, platformShortcut, () => DEFAULT_SHORTCUT);
}

/**
 * A key per row of `pairs` that survives removing the rows above it (an index key would hand one row's
 * focus and input state to the next). Pairs added at the end get new keys; `remove` drops a row's key
 * with the row.
 */
function useRowKeys(pairs: readonly ParamPair[]) {
  const [rows, setRows] = useState(() => ({ pairs, keys: pairs.map((_, i) => i), next: pairs.length }));
  let current = rows;
  if (rows.pairs !== pairs) {
    let next = rows.next;
    const keys = rows.keys.length === pairs.length ? rows.keys : pairs.map((_, i) => rows.keys[i] ?? next++);
    current = { pairs, keys, next };
    setRows(current);
  }
  const remove = (index: number, remaining: readonly ParamPair[]) =>
    setRows({ pairs: remaining, keys: current.keys.filter((_, j) => j !== index), next: current.next });
  return { keys: current.keys, remove };
}

/** Before sending: a method whose scopes the chosen token lacks, with a reinstall that asks for one of them. */
function ScopeWarning({ method, request, installation }: { method: CatalogMethod; request: ExplorerRequest; installation: InstallationView | undefined }) {
  const token = installation?.[request.tokenKind];
  if (!installation || !token) return null;
  const check = scopeCheck(method, request.tokenKind, token.scopes);
  if (check.ok) return null;
  const wanted = check.missing[0]!;
  const href =
    request.tokenKind === "bot"
      ? reinstallHref(installation, [...(installation.bot?.scopes ?? []), wanted])
      : reinstallHref(installation, installation.bot?.scopes ?? [], [...(installation.user?.scopes ?? []), wanted]);
  return (
    <div
      role="note"
      aria-label="Scope warning"
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <p>
        <span className="font-mono">{method.name}</span> needs <span className="font-mono">{check.missing.join(" or ")}</span>, which this {request.tokenKind}{" "}
        token was not granted
        {method.scopes.byTokenKind ? "" : " (the reference lists one set of scopes for every kind of token, so this may be a legacy scope)"}. You can still send
        it.
      </p>
      <a href={href} className="font-medium text-amber-950 underline">
        Reinstall with {wanted}
      </a>
    </div>
  );
}

/** Method, token, transport and arguments, and the two ways to call: Send (one call) and Fetch all (every page). */
export function RequestForm({
  request,
  onChange,
  installations,
  catalog,
  catalogMethod,
  upstream,
  emulated,
  paginated,
  onSend,
  onFetchAll,
  maxPages,
  onMaxPagesChange,
  busy,
  walking,
}: Props) {
  const ids = useId();
  const methodValid = isValidMethod(request.method);
  const canCall = methodValid && request.installation !== "";
  const selected = installations.find((i) => i.id === request.installation)?.view;
  const shortcut = useSendShortcut();
  const set = (patch: Partial<ExplorerRequest>) => onChange({ ...request, ...patch });
  // A method picked starts from its first page with the catalog's transport; a limit set for a method that
  // pages stays for another one that pages (a method that does not page has none left in the request).
  const pickMethod = (method: CatalogMethod) => {
    const shape = catalogShape(method);
    const keepLimit = shape.paginated && request.limit !== "";
    onChange(withMethodDefaults({ ...request, method: method.name, cursor: "" }, shape, { transport: false, limit: keepLimit }));
  };

  const catalogArgNames = useMemo(() => new Set(catalogMethod ? formArguments(catalogMethod).map((a) => a.name) : []), [catalogMethod]);
  const argValues = useMemo(() => new Map(request.extra.map((p) => [p.key, p.value])), [request.extra]);
  // Free parameters: every pair the argument form does not show, with its index in the request.
  const free = request.extra.map((pair, index) => ({ pair, index })).filter(({ pair }) => pair.free === true || !catalogArgNames.has(pair.key));

  const rowKeys = useRowKeys(request.extra);
  const setPair = (i: number, patch: Partial<ParamPair>) => set({ extra: request.extra.map((p, j) => (j === i ? { ...p, ...patch } : p)) });
  const removePair = (i: number) => {
    const extra = request.extra.filter((_, j) => j !== i);
    rowKeys.remove(i, extra);
    set({ extra });
  };

  const tokenScopes = { kind: request.tokenKind, granted: selected?.[request.tokenKind]?.scopes ?? null };
  const notInCatalog = catalog !== undefined && methodValid && request.method !== "" && !catalogMethod;
  // Only names the upstream answers: the embedded emulator's own when it is the upstream.
  const answered = answeredMethods(upstream, catalog, emulated);
  const suggestions = notInCatalog && answered ? nearestMethodNames(answered, request.method) : [];

  return (
    <form
      aria-label="Request"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (canCall && !busy) onSend();
      }}
    >
      <div className="grid gap-3 md:grid-cols-[minmax(14rem,1.4fr)_minmax(12rem,1fr)_auto_auto]">
        <div>
          <label htmlFor={`${ids}-method`} className="mb-1 block text-xs font-medium text-slate-600">
            Method
          </label>
          <MethodPicker
            id={`${ids}-method`}
            value={request.method}
            catalog={catalog}
            invalid={request.method !== "" && !methodValid}
            describedBy={`${ids}-method-note`}
            onChange={(method) => set({ method })}
            onPick={pickMethod}
            details={(method) => <MethodDetails method={method} token={tokenScopes} emulated={emulated} />}
          />
          <p id={`${ids}-method-note`} className="mt-1 text-xs text-slate-500">
            {request.method === "" ? (
              "Type to search the platform's methods, or a method's name."
            ) : !methodValid ? (
              <span className="text-rose-700">Letters, digits and dots only, for example users.list.</span>
            ) : notInCatalog ? (
              <>
                Not in the platform&apos;s catalog: sent as typed.
                {suggestions.length > 0 && (
                  <>
                    {" "}
                    Did you mean{" "}
                    {suggestions.map((name, i) => (
                      <span key={name}>
                        {i > 0 && ", "}
                        <button
                          type="button"
                          className="font-mono text-emerald-800 underline"
                          onClick={() => {
                            const method = catalog && findMethod(catalog, name);
                            if (method) pickMethod(method);
                            else set({ method: name });
                          }}
                        >
                          {name}
                        </button>
                      </span>
                    ))}
                    ?
                  </>
                )}
              </>
            ) : catalogMethod ? (
              catalogMethod.summary
            ) : (
              "Type to search the platform's methods."
            )}
          </p>
        </div>
        <div>
          <label htmlFor={`${ids}-installation`} className="mb-1 block text-xs font-medium text-slate-600">
            Installation
          </label>
          <select id={`${ids}-installation`} value={request.installation} onChange={(e) => set({ installation: e.target.value })} className={INPUT}>
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
              const missing = selected !== undefined && selected[kind] === null;
              return (
                <label
                  key={kind}
                  title={missing ? `This installation has no ${kind} token` : undefined}
                  className={`rounded px-3 py-1 ${missing ? "cursor-not-allowed text-slate-500" : "cursor-pointer"} ${request.tokenKind === kind ? "bg-slate-900 text-white" : missing ? "" : "text-slate-600 hover:bg-slate-100"}`}
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
            <kbd aria-hidden className="rounded bg-emerald-900/40 px-1 font-mono text-[10px] font-normal">
              {shortcut}
            </kbd>
          </button>
          {paginated && (
            <button type="button" className={BUTTON.secondary} disabled={!canCall || walking} onClick={onFetchAll}>
              Fetch all
            </button>
          )}
        </div>
      </div>

      {catalogMethod && <ScopeWarning method={catalogMethod} request={request} installation={selected} />}

      <div className="flex flex-wrap items-center gap-3">
        <SegmentedControl
          label="Verb and body"
          className="bg-slate-100 text-sm"
          value={transportOf(request)}
          onChange={(t) => set(t === "GET" ? { httpMethod: "GET" } : { httpMethod: "POST", encoding: t === "POST-json" ? "json" : "form" })}
          options={[
            { value: "GET", label: "GET" },
            { value: "POST-form", label: "POST form" },
            { value: "POST-json", label: "POST JSON" },
          ]}
        />
        <p className="text-xs text-slate-500">
          {request.httpMethod === "GET"
            ? "Parameters in the query string, the token in the Authorization header."
            : request.encoding === "json"
              ? "A JSON body (Content-Type: application/json), the token in the Authorization header."
              : "A form-encoded body, the token in the Authorization header."}
          {catalogMethod && request.httpMethod === "POST" && request.encoding === "json" && !catalogMethod.encodings.includes("json") && (
            <span className="text-amber-800"> The catalog says {catalogMethod.name} takes form-encoded arguments only.</span>
          )}
        </p>
      </div>

      {paginated && (
        <div className="grid gap-3 md:grid-cols-[minmax(0,2fr)_7rem_7rem]">
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
      )}

      {catalogMethod && (
        <ArgumentForm
          method={catalogMethod}
          values={argValues}
          onChange={(name, value) => onChange(withParam(request, name, value))}
          {...(request.installation ? { source: { installation: request.installation, token: request.tokenKind } } : {})}
        />
      )}

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
        <button
          type="button"
          onClick={() => set({ extra: [...request.extra, { key: "", value: "", free: true }] })}
          className="text-sm font-medium text-emerald-800 hover:underline"
        >
          + Add parameter
        </button>
        <p className="text-xs text-slate-500">
          Tokens never go in the form or the URL: the console sends the installation&apos;s {request.tokenKind} token from your session.
        </p>
      </div>
    </form>
  );
}
