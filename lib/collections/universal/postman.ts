/**
 * A Postman collection (format v2.1) of the platform's methods read as a collection of saved requests:
 * each request's method is the last part of its URL's path (…/api/chat.postMessage), kept only when the
 * platform's catalog knows it; its arguments come from the URL's query, a urlencoded or form-data body, or
 * a raw JSON body (which makes it a JSON POST). Folders are flattened in order, their names leading the
 * request's. Tokens are never kept: a bearer auth or an Authorization header is dropped with a note (its
 * kind, bot or user, is kept as the request's token kind), as is any argument that carries one.
 */
import { z } from "zod";
import { LIMITS, NameSchema, RequestFieldsSchema, type RequestFields } from "./model";
import { dropCredentials, type ImportedCollection } from "./import-result";
import { CollectionFileError } from "./ndjson";

const KeyValue = z.object({ key: z.string().optional(), value: z.unknown().optional(), disabled: z.boolean().optional() }).loose();
const Auth = z.object({ type: z.string(), bearer: z.array(KeyValue).optional() }).loose();
const Url = z.union([
  z.string(),
  z.object({ raw: z.string().optional(), path: z.union([z.array(z.string()), z.string()]).optional(), query: z.array(KeyValue).optional() }).loose(),
]);
const Body = z
  .object({
    mode: z.string().optional(),
    raw: z.string().optional(),
    urlencoded: z.array(KeyValue).optional(),
    formdata: z.array(KeyValue).optional(),
    options: z
      .object({ raw: z.object({ language: z.string().optional() }).loose().optional() })
      .loose()
      .optional(),
  })
  .loose();
const Request = z.object({
  method: z.string().optional(),
  url: Url.optional(),
  header: z.union([z.array(KeyValue), z.string()]).optional(),
  body: Body.nullish(),
  auth: Auth.nullish(),
});
interface Item {
  name?: string;
  item?: Item[];
  request?: unknown;
}
const ItemSchema: z.ZodType<Item> = z.lazy(() =>
  z.object({ name: z.string().optional(), item: z.array(ItemSchema).optional(), request: z.unknown().optional() }).loose(),
);
const PostmanSchema = z.object({
  info: z.object({ name: z.string(), schema: z.string().optional() }).loose(),
  item: z.array(ItemSchema),
  auth: Auth.nullish(),
});

/** Whether a file is a Postman collection rather than the console's own format (its `info.schema` says). */
export function looksLikePostman(text: string): boolean {
  return /"schema"\s*:\s*"https:\/\/schema\.getpostman\.com\/json\/collection\/v2\.[01]/.test(text.slice(0, 4096)) || /^\s*\{\s*"info"\s*:/.test(text);
}

function methodOfUrl(url: z.infer<typeof Url> | undefined): string | null {
  if (url === undefined) return null;
  const path = typeof url === "string" ? url : Array.isArray(url.path) ? url.path.join("/") : (url.path ?? url.raw ?? "");
  const withoutQuery = path.split(/[?#]/)[0] ?? "";
  const last = withoutQuery.split("/").filter(Boolean).pop();
  return last ?? null;
}

const text = (value: unknown): string => (typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value));

function pairsOf(list: Array<z.infer<typeof KeyValue>> | undefined): Array<{ key: string; value: string }> {
  return (list ?? [])
    .filter((p) => p.disabled !== true && typeof p.key === "string" && p.key.trim() !== "")
    .map((p) => ({ key: p.key!.trim(), value: text(p.value) }));
}

function queryOf(url: z.infer<typeof Url> | undefined): Array<{ key: string; value: string }> {
  if (url === undefined) return [];
  if (typeof url !== "string" && url.query) return pairsOf(url.query);
  const raw = typeof url === "string" ? url : (url.raw ?? "");
  const at = raw.indexOf("?");
  return at < 0 ? [] : [...new URLSearchParams(raw.slice(at + 1).split("#")[0])].map(([key, value]) => ({ key, value }));
}

/** The token kind a dropped token was (a user token, xoxp-, or else a bot's), so the request still says which to use. */
const kindOfToken = (token: string): "bot" | "user" => (/xoxp-/.test(token) ? "user" : "bot");

function readRequest(label: string, raw: unknown, inheritedAuth: z.infer<typeof Auth> | null | undefined, notes: string[]): RequestFields | { skip: string } {
  // v2.1 lets a request be its URL alone (a GET).
  const parsed = Request.safeParse(typeof raw === "string" ? { method: "GET", url: raw } : raw);
  if (!parsed.success) return { skip: "its request is not a Postman v2.1 request" };
  const request = parsed.data;
  const method = methodOfUrl(request.url);
  if (!method) return { skip: "its URL names no method" };
  let tokenKind: "bot" | "user" = "bot";
  const auth = request.auth ?? inheritedAuth;
  if (auth?.type === "bearer") {
    const token = text(auth.bearer?.find((p) => p.key === "token")?.value);
    if (token) tokenKind = kindOfToken(token);
    // The collection's own auth is said once, for the whole file.
    if (request.auth) notes.push(`${label}: dropped its bearer token; the console calls with the installation's ${tokenKind} token.`);
  }
  const headers = Array.isArray(request.header) ? request.header : [];
  for (const header of headers) {
    if (header.key?.toLowerCase() === "authorization") {
      if (!auth) tokenKind = kindOfToken(text(header.value));
      notes.push(`${label}: dropped its Authorization header.`);
    }
  }
  const contentType = text(headers.find((h) => h.key?.toLowerCase() === "content-type" && h.disabled !== true)?.value).toLowerCase();
  let args = queryOf(request.url);
  let encoding: "form" | "json" = "form";
  const body = request.body;
  if (body?.mode === "urlencoded") args = [...args, ...pairsOf(body.urlencoded)];
  else if (body?.mode === "formdata") args = [...args, ...pairsOf(body.formdata)];
  else if (body?.mode === "raw" && (body.raw ?? "").trim() !== "") {
    const isJson = body.options?.raw?.language === "json" || contentType.includes("json");
    let value: unknown;
    try {
      value = JSON.parse(body.raw!);
    } catch {
      return { skip: isJson ? "its raw body is not JSON" : "its raw body is neither JSON nor form fields" };
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { skip: "its JSON body is not an object of arguments" };
    args = [...args, ...Object.entries(value).map(([key, v]) => ({ key, value: text(v) }))];
    encoding = "json";
  }
  const verb = (request.method ?? "GET").toUpperCase();
  if (verb !== "GET" && verb !== "POST") notes.push(`${label}: Postman's ${verb} became a POST (the platform takes GET and POST).`);
  const fields = RequestFieldsSchema.safeParse({
    name: label.slice(0, LIMITS.nameChars),
    method,
    // A GET's arguments travel in its query; a body makes it a POST.
    httpMethod: verb === "GET" && (!body?.mode || args.length === queryOf(request.url).length) ? "GET" : "POST",
    encoding,
    tokenKind,
    args: dropCredentials(label, args, notes),
    bindings: [],
  });
  if (!fields.success) {
    const issue = fields.error.issues[0];
    return { skip: issue ? `${issue.path.join(".") || "it"}: ${issue.message}` : "it does not read as a request" };
  }
  return fields.data;
}

/** Reads a Postman v2.1 collection; `isKnown` says which methods the catalog has (the others are skipped and listed). */
export function fromPostman(fileText: string, isKnown: (method: string) => boolean): ImportedCollection {
  let json: unknown;
  try {
    json = JSON.parse(fileText);
  } catch {
    throw new CollectionFileError("The file is not JSON (a Postman collection is one JSON object).");
  }
  const parsed = PostmanSchema.safeParse(json);
  if (!parsed.success) throw new CollectionFileError("The file is not a Postman collection (v2.1): it needs info.name and item.");
  const collection = parsed.data;
  const named = NameSchema.safeParse(collection.info.name.slice(0, LIMITS.nameChars));
  const result: ImportedCollection = { name: named.success ? named.data : "Postman collection", requests: [], skipped: [], notes: [] };
  if (!named.success) result.notes.push(`The collection's name was not kept (${named.error.issues[0]?.message ?? "not a name"}).`);
  if (collection.auth?.type === "bearer") result.notes.push("The collection's bearer token was dropped: the console calls with an installation's tokens.");
  const walk = (items: Item[], folders: string[]) => {
    for (const item of items) {
      const name = (item.name ?? "").trim() || "Untitled";
      if (item.item) {
        walk(item.item, [...folders, name]);
        continue;
      }
      const label = [...folders, name].join(" / ");
      const read = readRequest(label, item.request, collection.auth, result.notes);
      if ("skip" in read) result.skipped.push({ item: label, reason: read.skip });
      else if (!isKnown(read.method)) result.skipped.push({ item: label, reason: `${read.method} is not a method of the platform's catalog` });
      else result.requests.push(read);
    }
  };
  walk(collection.item, []);
  if (result.requests.length > LIMITS.requestsPerCollection) {
    throw new CollectionFileError(`The file holds ${result.requests.length} requests; a collection holds at most ${LIMITS.requestsPerCollection}.`);
  }
  return result;
}
