"use client";

import { reinstallHref } from "@/lib/installations/universal/install-href";
import type { CatalogMethod } from "@/lib/explorer/catalog";
import { unknownMethodAdvice, type UpstreamKind } from "@/lib/explorer/method-suggestions";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import type { InstallationView } from "@/lib/installations/universal/view";

const splitScopes = (value: unknown) =>
  typeof value === "string"
    ? value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/**
 * What an error answer means and what to do about it: `missing_scope` names the scope needed and the ones
 * the token has, with a reinstall that asks for it; `unknown_method` says when the embedded emulator lacks a
 * method of the platform's and offers the nearest names the upstream answers; any other code the catalog
 * documents for the method gets its description.
 */
export function AnswerNotes({
  body,
  method,
  catalog,
  catalogMethod,
  upstream,
  emulated,
  tokenKind,
  installation,
  onUseMethod,
}: {
  body: unknown;
  method: string;
  catalog: readonly CatalogMethod[] | undefined;
  catalogMethod: CatalogMethod | undefined;
  upstream: UpstreamKind | undefined;
  /** The embedded emulator's own list of its methods, while it is the upstream. */
  emulated: ReadonlyMap<string, { name: string }> | undefined;
  tokenKind: TokenKind;
  installation: InstallationView | undefined;
  onUseMethod(name: string): void;
}) {
  const answer = (body ?? {}) as { ok?: unknown; error?: unknown; needed?: unknown; provided?: unknown };
  if (answer.ok !== false || typeof answer.error !== "string") return null;
  const code = answer.error;

  if (code === "missing_scope") {
    const needed = splitScopes(answer.needed);
    const provided = splitScopes(answer.provided);
    const wanted = needed[0];
    const href =
      installation && wanted
        ? tokenKind === "bot"
          ? reinstallHref(installation, [...(installation.bot?.scopes ?? []), wanted])
          : reinstallHref(installation, installation.bot?.scopes ?? [], [...(installation.user?.scopes ?? []), wanted])
        : null;
    return (
      <div role="alert" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
        <p>
          <strong className="font-semibold">missing_scope</strong>: {method} needs{" "}
          {needed.length > 0 ? <span className="font-mono">{needed.join(" or ")}</span> : "a scope the platform did not name"}, and this {tokenKind} token has{" "}
          {provided.length > 0 ? <span className="font-mono">{provided.join(", ")}</span> : "none"}.
        </p>
        {href && wanted && (
          <a href={href} className="inline-block rounded-md bg-amber-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-amber-950">
            Reinstall with {wanted}
          </a>
        )}
      </div>
    );
  }

  if (code === "unknown_method") {
    const advice = unknownMethodAdvice(method, upstream, catalog, emulated);
    const near = advice.suggestions;
    const names = near.map((name, i) => (
      <span key={name}>
        {i > 0 && ", "}
        <button type="button" onClick={() => onUseMethod(name)} className="font-mono font-medium underline">
          {name}
        </button>
      </span>
    ));
    return (
      <div role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-950">
        {advice.notImplemented ? (
          <p>
            <strong className="font-semibold">unknown_method</strong>: the embedded emulator does not implement <span className="font-mono">{method}</span>, a
            method of the platform&apos;s catalog that the platform itself answers. The emulator implements {advice.implementedCount} methods, which it
            describes itself (the method picker&apos;s details say whether it implements each).
            {near.length > 0 && <> Near names it implements: {names}.</>}
          </p>
        ) : (
          <p>
            <strong className="font-semibold">unknown_method</strong>: the upstream does not answer <span className="font-mono">{method}</span>.
            {near.length > 0 ? " Did you mean " : catalog && !catalogMethod ? " It is not in the platform's catalog either." : ""}
            {names}
            {near.length > 0 ? "?" : ""}
          </p>
        )}
      </div>
    );
  }

  const documented = catalogMethod?.errors.find((e) => e.code === code);
  if (!documented?.description) return null;
  return (
    <p role="note" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
      <strong className="font-mono font-semibold">{code}</strong>: {documented.description}
    </p>
  );
}
