"use client";

import { useId, useMemo } from "react";
import type { ArgumentTyping } from "@/lib/explorer/argument-typing";
import type { CatalogMethod } from "@/lib/explorer/catalog";
import type { UpstreamKind } from "@/lib/explorer/method-suggestions";
import { isValidMethod, type ExplorerRequest } from "@/lib/explorer/params";
import type { EmulatedMethod } from "@/lib/swr/use-emulator-methods";
import { ArgumentForm } from "./argument-form";
import { FreeParameters } from "./free-parameters";
import { MethodField } from "./method-field";
import { PagingFields } from "./paging-fields";
import { editRequest, type RequestEdit } from "./request-form-state";
import { ScopeWarning } from "./scope-warning";
import { SendButtons } from "./send-buttons";
import { TokenChoice } from "./token-choice";
import { TransportChoice } from "./transport-choice";
import { InstallationField } from "@/components/installations/installation-field";
import type { InstallationOption, InstallationPicker } from "@/components/installations/use-installation-search";

interface Props {
  request: ExplorerRequest;
  onChange(request: ExplorerRequest): void;
  installations: InstallationOption[];
  /** The picker's search (typed key by key, sent once typing rests) and what it found. */
  picker: InstallationPicker;
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
  /** How a call would type its arguments now: while the catalog has not said, nothing is sent. */
  typing: ArgumentTyping;
  walking: boolean;
}

/** Method, token, transport and arguments, and the two ways to call: Send (one call) and Fetch all (every page). */
export function RequestForm({
  request,
  onChange,
  installations,
  picker,
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
  typing,
  walking,
}: Props) {
  const ids = useId();
  const waiting = typing.status === "waiting";
  const canCall = isValidMethod(request.method) && request.installation !== "" && !waiting;
  const selected = installations.find((i) => i.id === request.installation)?.view;
  const argValues = useMemo(() => new Map(request.extra.map((p) => [p.key, p.value])), [request.extra]);
  // Every field's change goes through the form's reducer (request-form-state.ts) and up to the page.
  const edit = (change: RequestEdit) => {
    const next = editRequest(request, change);
    onChange(next);
    return next;
  };

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
        <MethodField
          id={`${ids}-method`}
          method={request.method}
          catalog={catalog}
          catalogMethod={catalogMethod}
          upstream={upstream}
          emulated={emulated}
          token={{ kind: request.tokenKind, granted: selected?.[request.tokenKind]?.scopes ?? null }}
          onEdit={edit}
        />
        <InstallationField
          searchLabel="Find a workspace"
          label="Installation"
          value={request.installation}
          installations={installations}
          picker={picker}
          onChoose={(installation) => edit({ type: "installation_chosen", installation })}
        />
        <TokenChoice
          name={`${ids}-token`}
          tokenKind={request.tokenKind}
          installation={selected}
          onChoose={(tokenKind) => edit({ type: "token_chosen", tokenKind })}
        />
        <SendButtons canCall={canCall} busy={busy} waiting={waiting} paginated={paginated} walking={walking} onFetchAll={onFetchAll} />
      </div>

      {typing.status === "untyped" && typing.reason === "no_catalog" && (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          The platform&apos;s method catalog did not load: arguments are sent as written, each as a string (a JSON body&apos;s{" "}
          <code className="font-mono">false</code> goes as <code className="font-mono">&quot;false&quot;</code>).
        </p>
      )}

      {catalogMethod && <ScopeWarning method={catalogMethod} request={request} installation={selected} />}

      <TransportChoice request={request} catalogMethod={catalogMethod} onChoose={(transport) => edit({ type: "transport_chosen", transport })} />

      {paginated && (
        <PagingFields id={ids} cursor={request.cursor} limit={request.limit} maxPages={maxPages} onEdit={edit} onMaxPagesChange={onMaxPagesChange} />
      )}

      {catalogMethod && (
        <ArgumentForm
          method={catalogMethod}
          values={argValues}
          onChange={(name, value) => edit({ type: "argument_set", name, value })}
          {...(request.installation ? { source: { installation: request.installation, token: request.tokenKind } } : {})}
        />
      )}

      <FreeParameters request={request} catalogMethod={catalogMethod} onEdit={edit} />
    </form>
  );
}
