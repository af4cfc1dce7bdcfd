"use client";

import { findMethod, nearestMethodNames, type CatalogMethod } from "@/lib/explorer/catalog";
import { answeredMethods, type UpstreamKind } from "@/lib/explorer/method-suggestions";
import { isValidMethod } from "@/lib/explorer/params";
import type { EmulatedMethod } from "@/lib/swr/use-emulator-methods";
import { MethodDetails, type TokenScopes } from "./method-details";
import { MethodPicker } from "./method-picker";
import type { RequestEdit } from "./request-form-state";

/**
 * The method: a search of the platform's catalog, and under it what the name is (the method's summary, a
 * name the platform would refuse, or one outside the catalog with the names nearest to it).
 */
export function MethodField({
  id,
  method,
  catalog,
  catalogMethod,
  upstream,
  emulated,
  token,
  onEdit,
}: {
  id: string;
  method: string;
  catalog: readonly CatalogMethod[] | undefined;
  catalogMethod: CatalogMethod | undefined;
  upstream: UpstreamKind | undefined;
  emulated: ReadonlyMap<string, EmulatedMethod> | undefined;
  /** The chosen token and its scopes (null while unknown), for each method's details. */
  token: TokenScopes;
  onEdit: (edit: RequestEdit) => void;
}) {
  const methodValid = isValidMethod(method);
  const notInCatalog = catalog !== undefined && methodValid && method !== "" && !catalogMethod;
  // Only names the upstream answers: the embedded emulator's own when it is the upstream.
  const answered = answeredMethods(upstream, catalog, emulated);
  const suggestions = notInCatalog && answered ? nearestMethodNames(answered, method) : [];
  const pick = (picked: CatalogMethod) => onEdit({ type: "method_picked", method: picked });

  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-slate-600">
        Method
      </label>
      <MethodPicker
        id={id}
        value={method}
        catalog={catalog}
        invalid={method !== "" && !methodValid}
        describedBy={`${id}-note`}
        onChange={(typed) => onEdit({ type: "method_typed", method: typed })}
        onPick={pick}
        details={(shown) => <MethodDetails method={shown} token={token} emulated={emulated} />}
      />
      <p id={`${id}-note`} className="mt-1 text-xs text-slate-500">
        {method === "" ? (
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
                        const found = catalog && findMethod(catalog, name);
                        if (found) pick(found);
                        else onEdit({ type: "method_typed", method: name });
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
  );
}
