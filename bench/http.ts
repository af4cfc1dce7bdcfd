/**
 * What a bench needs from an HTTP answer, checked: when it does not get it, the suite stops with the
 * status and the body it got (an error page, a 403 with its reason), never a TypeError further on.
 */
export class BenchHttpError extends Error {
  constructor(
    readonly what: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${what}: HTTP ${status}${body ? ` ${body.length > 500 ? `${body.slice(0, 500)}…` : body}` : ""}`);
    this.name = "BenchHttpError";
  }
}

/** The JSON body of a 2xx answer; otherwise (or when it is not JSON) a BenchHttpError naming `what`. */
export async function expectJson<T = Record<string, unknown>>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new BenchHttpError(what, response.status, text);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new BenchHttpError(`${what} (not JSON)`, response.status, text);
  }
}

/**
 * The JSON body of a Web API answer that must say `ok: true` (with HTTP 200): otherwise a
 * BenchHttpError with the platform's error code in the body.
 */
export async function expectPlatformOk<T = Record<string, unknown>>(response: Response, what: string): Promise<T & { ok: true }> {
  const body = await expectJson<T & { ok?: boolean }>(response, what);
  if (body.ok !== true) throw new BenchHttpError(what, response.status, JSON.stringify(body));
  return body as T & { ok: true };
}

/** Throws a BenchHttpError unless the answer is 2xx (its body is read for the message only then). */
export async function expectOk(response: Response, what: string): Promise<Response> {
  if (!response.ok) throw new BenchHttpError(what, response.status, await response.text());
  return response;
}
