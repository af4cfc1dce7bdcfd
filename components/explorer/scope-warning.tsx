"use client";

import { scopeCheck, type CatalogMethod } from "@/lib/explorer/catalog";
import type { ExplorerRequest } from "@/lib/explorer/params";
import { reinstallHref } from "@/lib/installations/universal/install-href";
import type { InstallationView } from "@/lib/installations/universal/view";

/** Before sending: a method whose scopes the chosen token lacks, with a reinstall that asks for one of them. */
export function ScopeWarning({
  method,
  request,
  installation,
}: {
  method: CatalogMethod;
  request: ExplorerRequest;
  installation: InstallationView | undefined;
}) {
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
