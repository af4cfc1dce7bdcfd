/**
 * The one way the console reads a body it does not trust the size or pace of (a request to one of its
 * routes, an event the platform POSTs, a webhook's answer): chunk by chunk, never past `maxBytes`, and,
 * with `timeoutMs`, never longer than that. An oversized body is never held whole.
 */

export type BoundedRead =
  /** The whole body. */
  | { outcome: "complete"; bytes: Uint8Array }
  /** More than maxBytes: reading stopped there. `bytes` holds the first maxBytes (for a preview). */
  | { outcome: "too_large"; bytes: Uint8Array; declared: boolean }
  /** Slower than timeoutMs. */
  | { outcome: "too_slow"; receivedBytes: number; ms: number }
  /** The stream failed mid-way (the sender went away, a fetch's own timeout): `error` is what it failed with. */
  | { outcome: "aborted"; receivedBytes: number; ms: number; error: unknown };

export interface ReadBoundedOptions {
  maxBytes: number;
  /** A Content-Length over maxBytes stops before reading anything. */
  declaredLength?: string | null;
  timeoutMs?: number;
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk.subarray(0, size - offset), offset);
    offset += Math.min(chunk.byteLength, size - offset);
    if (offset >= size) break;
  }
  return out;
}

export async function readBounded(body: ReadableStream<Uint8Array> | null, options: ReadBoundedOptions): Promise<BoundedRead> {
  const { maxBytes } = options;
  const declared = Number(options.declaredLength ?? "");
  if (options.declaredLength && Number.isFinite(declared) && declared > maxBytes) {
    await body?.cancel().catch(() => {});
    return { outcome: "too_large", bytes: new Uint8Array(0), declared: true };
  }
  if (!body) return { outcome: "complete", bytes: new Uint8Array(0) };
  const started = Date.now();
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline =
    options.timeoutMs === undefined
      ? null
      : new Promise<"too_slow">((resolve) => {
          timer = setTimeout(() => resolve("too_slow"), options.timeoutMs);
        });
  const chunks: Uint8Array[] = [];
  let size = 0;
  const progress = () => ({ receivedBytes: size, ms: Date.now() - started });
  try {
    for (;;) {
      const next = deadline ? await Promise.race([reader.read(), deadline]) : await reader.read();
      if (next === "too_slow") {
        reader.cancel().catch(() => {});
        return { outcome: "too_slow", ...progress() };
      }
      if (next.done) break;
      chunks.push(next.value);
      size += next.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return { outcome: "too_large", bytes: concat(chunks, maxBytes), declared: false };
      }
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    return { outcome: "aborted", ...progress(), error };
  } finally {
    clearTimeout(timer);
  }
  return { outcome: "complete", bytes: concat(chunks, size) };
}
