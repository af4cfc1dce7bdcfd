"use client";

import { scopeCheck, type CatalogMethod } from "@/lib/explorer/catalog";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import type { EmulatedMethod } from "@/lib/swr/use-emulator-methods";
import { Badge } from "@/components/ui/primitives";

const TIERS: Record<string, string> = {
  "1": "Tier 1 · 1+/min",
  "2": "Tier 2 · 20+/min",
  "3": "Tier 3 · 50+/min",
  "4": "Tier 4 · 100+/min",
  special: "Special rate limit",
};

export interface TokenScopes {
  kind: TokenKind;
  /** The scopes the selected installation's token of that kind was granted; null when it has no such token. */
  granted: readonly string[] | null;
}

/**
 * What a developer wants to know about a method before calling it: what it does, what it takes, the
 * scopes it needs and whether the chosen token has them, whether it pages, its rate tier, and (against the
 * embedded emulator) whether the emulator implements it.
 */
export function MethodDetails({
  method,
  token,
  emulated,
}: {
  method: CatalogMethod;
  token: TokenScopes;
  /** Undefined against the real platform; otherwise the emulator's own description of its methods. */
  emulated: ReadonlyMap<string, EmulatedMethod> | undefined;
}) {
  const check = token.granted ? scopeCheck(method, token.kind, token.granted) : null;
  const needed = method.scopes[token.kind];
  const implemented = emulated?.get(method.name);
  return (
    <div className="space-y-2 text-sm">
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <span className="font-mono font-semibold text-slate-900">{method.name}</span>
        {method.deprecated && <Badge tone="warn">deprecated</Badge>}
      </div>
      <p className="text-slate-700">{method.summary}</p>
      <dl className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-2 gap-y-1 text-xs">
        <dt className="text-slate-500">{token.kind} scopes</dt>
        <dd>
          {needed.length === 0 ? (
            <span className="text-slate-600">none needed</span>
          ) : (
            <>
              <span className="font-mono">{needed.join(needed.length > 1 ? " or " : "")}</span>
              {check && (
                <span className={`ml-1 ${check.ok ? "text-emerald-700" : "text-amber-800"}`}>{check.ok ? "· this token has it" : "· this token lacks it"}</span>
              )}
              {!token.granted && <span className="ml-1 text-slate-500">· no {token.kind} token here</span>}
            </>
          )}
        </dd>
        <dt className="text-slate-500">pages</dt>
        <dd>
          {method.pagination ? (
            <span>
              cursor-paginated · <span className="font-mono">{method.pagination.list}</span>
            </span>
          ) : (
            "no"
          )}
        </dd>
        <dt className="text-slate-500">rate limit</dt>
        <dd>{method.rateTier !== undefined ? TIERS[String(method.rateTier)] : "not documented"}</dd>
        <dt className="text-slate-500">sends</dt>
        <dd>
          {method.verbs.join(" or ")}
          {method.encodings.includes("json") ? " · form or JSON body" : " · form-encoded"}
        </dd>
        {emulated && (
          <>
            <dt className="text-slate-500">emulator</dt>
            <dd className={implemented ? "text-emerald-700" : "text-slate-600"}>
              {implemented ? "implements it" : "does not implement it (answers unknown_method)"}
            </dd>
          </>
        )}
      </dl>
      <a href={method.docsUrl} target="_blank" rel="noreferrer" className="inline-block text-xs font-medium text-emerald-700 hover:underline">
        Platform documentation ↗
      </a>
    </div>
  );
}
