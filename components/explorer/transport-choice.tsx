"use client";

import { SegmentedControl } from "@/components/segmented-control";
import type { CatalogMethod } from "@/lib/explorer/catalog";
import type { ExplorerRequest } from "@/lib/explorer/params";
import { transportOf, type Transport } from "./request-form-state";

/** The verb and body, what each sends where, and a word when the catalog says the method takes no JSON. */
export function TransportChoice({
  request,
  catalogMethod,
  onChoose,
}: {
  request: ExplorerRequest;
  catalogMethod: CatalogMethod | undefined;
  onChoose: (transport: Transport) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <SegmentedControl
        label="Verb and body"
        className="bg-slate-100 text-sm"
        value={transportOf(request)}
        onChange={onChoose}
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
  );
}
