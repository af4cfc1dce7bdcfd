/**
 * A collection as a file a project keeps in its repository: NDJSON, a header line (the collection's name
 * and the format's version) then one request a line, every object's keys sorted and nothing that changes by
 * itself (no ids, no times), so a diff shows what a person changed. Reading it back and writing it again
 * gives the same bytes.
 */
import { LIMITS, NameSchema, RequestFieldsSchema, type RequestFields } from "./model";
import { dropCredentials, renumberBindings, type ImportedCollection } from "./import-result";

export const COLLECTION_FORMAT = "switchboard.collection";
export const COLLECTION_FORMAT_VERSION = 1;

/** JSON with every object's keys sorted (arrays keep their order): the same value always writes the same text. */
export function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Only what a request is, whatever else the object carries (an id, a position, times). */
function requestLine(request: RequestFields): string {
  const { name, method, httpMethod, encoding, tokenKind, args, bindings } = request;
  return sortedJson({
    name,
    method,
    httpMethod,
    encoding,
    tokenKind,
    args: args.map(({ key, value }) => ({ key, value })),
    bindings: bindings.map(({ param, step, path }) => ({ param, step, path })),
  });
}

export function toNdjson(name: string, requests: readonly RequestFields[]): string {
  const header = sortedJson({ collection: name, format: COLLECTION_FORMAT, version: COLLECTION_FORMAT_VERSION });
  return [header, ...requests.map(requestLine)].map((line) => `${line}\n`).join("");
}

/** A file name for a collection: its name in lower case, letters and digits kept. */
export function ndjsonFileName(name: string): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "collection";
  return `${base.slice(0, 60)}.switchboard.ndjson`;
}

const isPair = (arg: unknown): arg is { key: string; value: string } =>
  typeof (arg as { key?: unknown } | null)?.key === "string" && typeof (arg as { value?: unknown }).value === "string";

export class CollectionFileError extends Error {}

function parseLine(line: string, at: number): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    throw new CollectionFileError(`Line ${at} is not JSON.`);
  }
}

/**
 * Reads a collection file. A header that is not this format's is an error (CollectionFileError: nothing is
 * imported); a request line that does not read, or names a method `isKnown` does not know, is skipped and
 * listed; arguments carrying a token are dropped with a note.
 */
export function fromNdjson(text: string, isKnown: (method: string) => boolean): ImportedCollection {
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first < 0) throw new CollectionFileError("The file is empty.");
  const header = parseLine(lines[first]!, first + 1) as { format?: unknown; version?: unknown; collection?: unknown };
  if (header === null || typeof header !== "object" || header.format !== COLLECTION_FORMAT) {
    throw new CollectionFileError(`The first line is not a collection header ({"collection":…,"format":"${COLLECTION_FORMAT}","version":1}).`);
  }
  if (header.version !== COLLECTION_FORMAT_VERSION) {
    throw new CollectionFileError(`This console reads version ${COLLECTION_FORMAT_VERSION} of the format; the file is version ${String(header.version)}.`);
  }
  const name = NameSchema.safeParse(header.collection);
  if (!name.success) throw new CollectionFileError(`The header's collection name is not valid: ${name.error.issues[0]?.message ?? "a name is needed"}.`);

  const result: ImportedCollection = { name: name.data, requests: [], skipped: [], notes: [] };
  const kept: number[] = [];
  let step = 0;
  for (let i = first + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    step++;
    const at = `line ${i + 1}`;
    let raw: unknown;
    try {
      raw = parseLine(line, i + 1);
    } catch (error) {
      result.skipped.push({ item: at, reason: (error as Error).message });
      continue;
    }
    // Tokens are dropped before the schema (which refuses them) sees the request.
    const argsOf = (raw as { args?: unknown } | null)?.args;
    const pairs = Array.isArray(argsOf) && argsOf.every(isPair) ? argsOf : null;
    const withArgs = pairs ? { ...(raw as object), args: dropCredentials(at, pairs, result.notes) } : raw;
    const parsed = RequestFieldsSchema.safeParse(withArgs);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      result.skipped.push({ item: at, reason: `not a request: ${issue ? `${issue.path.join(".") || "the line"}: ${issue.message}` : "unreadable"}` });
      continue;
    }
    if (!isKnown(parsed.data.method)) {
      result.skipped.push({ item: `${at} (${parsed.data.name})`, reason: `${parsed.data.method} is not a method of the platform's catalog` });
      continue;
    }
    result.requests.push(parsed.data);
    kept.push(step);
  }
  if (result.requests.length > LIMITS.requestsPerCollection) {
    throw new CollectionFileError(`The file holds ${result.requests.length} requests; a collection holds at most ${LIMITS.requestsPerCollection}.`);
  }
  result.requests = renumberBindings(result.requests, kept, result.notes);
  return result;
}
