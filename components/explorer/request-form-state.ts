/**
 * The request form's edits as a pure reducer over the request: what each field, button and row does to it.
 * The form (request-form.tsx) dispatches and hands the new request to the page (onChange); the rows of free
 * parameters keep their keys in a reducer of their own (rowKeysFor, withoutRow).
 */
import type { CatalogMethod } from "@/lib/explorer/catalog";
import { catalogShape, withMethodDefaults } from "@/lib/explorer/method-defaults";
import { withParam, type ExplorerRequest, type ParamPair } from "@/lib/explorer/params";
import type { TokenKind } from "@/lib/installations/universal/token-kind";

/** The verb and body, as one choice: a GET, a form-encoded POST or a JSON POST. */
export type Transport = "GET" | "POST-form" | "POST-json";

export type RequestEdit =
  /** The method's field as typed: nothing else changes until a method is picked. */
  | { type: "method_typed"; method: string }
  /** A method picked from the catalog (the list, or a suggestion). */
  | { type: "method_picked"; method: CatalogMethod }
  | { type: "installation_chosen"; installation: string }
  | { type: "token_chosen"; tokenKind: TokenKind }
  | { type: "transport_chosen"; transport: Transport }
  | { type: "cursor_typed"; cursor: string }
  | { type: "limit_typed"; limit: string }
  /** One of the method's arguments in the argument form; an empty value removes it. */
  | { type: "argument_set"; name: string; value: string }
  | { type: "parameter_added" }
  | { type: "parameter_edited"; index: number; patch: Partial<ParamPair> }
  | { type: "parameter_removed"; index: number };

export function transportOf(request: ExplorerRequest): Transport {
  return request.httpMethod === "GET" ? "GET" : request.encoding === "json" ? "POST-json" : "POST-form";
}

export function editRequest(request: ExplorerRequest, edit: RequestEdit): ExplorerRequest {
  switch (edit.type) {
    case "method_typed":
      return { ...request, method: edit.method };
    case "method_picked": {
      // A method picked starts from its first page with the catalog's transport; a limit set for a method that
      // pages stays for another one that pages (a method that does not page has none left in the request).
      const shape = catalogShape(edit.method);
      const keepLimit = shape.paginated && request.limit !== "";
      return withMethodDefaults({ ...request, method: edit.method.name, cursor: "" }, shape, { transport: false, limit: keepLimit });
    }
    case "installation_chosen":
      return { ...request, installation: edit.installation };
    case "token_chosen":
      return { ...request, tokenKind: edit.tokenKind };
    case "transport_chosen":
      return edit.transport === "GET"
        ? { ...request, httpMethod: "GET" }
        : { ...request, httpMethod: "POST", encoding: edit.transport === "POST-json" ? "json" : "form" };
    case "cursor_typed":
      return { ...request, cursor: edit.cursor };
    case "limit_typed":
      return { ...request, limit: edit.limit };
    case "argument_set":
      return withParam(request, edit.name, edit.value);
    case "parameter_added":
      return { ...request, extra: [...request.extra, { key: "", value: "", free: true }] };
    case "parameter_edited":
      return { ...request, extra: request.extra.map((p, j) => (j === edit.index ? { ...p, ...edit.patch } : p)) };
    case "parameter_removed":
      return { ...request, extra: request.extra.filter((_, j) => j !== edit.index) };
  }
}

/**
 * A key per row of free parameters that survives removing the rows above it (an index key would hand one
 * row's focus and input state to the next). Pairs added at the end get new keys.
 */
export interface RowKeys {
  pairs: readonly ParamPair[];
  keys: number[];
  next: number;
}

export function initialRowKeys(pairs: readonly ParamPair[]): RowKeys {
  return { pairs, keys: pairs.map((_, i) => i), next: pairs.length };
}

/** The keys for `pairs`: the same rows when the pairs are, kept as they were when only values changed. */
export function rowKeysFor(rows: RowKeys, pairs: readonly ParamPair[]): RowKeys {
  if (rows.pairs === pairs) return rows;
  let next = rows.next;
  const keys = rows.keys.length === pairs.length ? rows.keys : pairs.map((_, i) => rows.keys[i] ?? next++);
  return { pairs, keys, next };
}

/** The keys once row `index` is removed, leaving `remaining`: the row's key goes with it. */
export function withoutRow(rows: RowKeys, index: number, remaining: readonly ParamPair[]): RowKeys {
  return { pairs: remaining, keys: rows.keys.filter((_, j) => j !== index), next: rows.next };
}
