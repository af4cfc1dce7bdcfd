import { describe, expect, it } from "vitest";
import { readBounded } from "@/lib/read-bounded";

const bytes = (n: number, fill = 97) => new Uint8Array(n).fill(fill);

/** A body that yields the given chunks, remembering how many were pulled. */
function body(chunks: Uint8Array[], options: { failAfter?: number; hangAfter?: number } = {}) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (options.failAfter !== undefined && pulled === options.failAfter) return controller.error(new TypeError("socket hang up"));
      if (options.hangAfter !== undefined && pulled === options.hangAfter) return new Promise(() => {});
      const next = chunks[pulled++];
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  return { stream, pulled: () => pulled };
}

describe("reading a body of untrusted size and pace", () => {
  it("reads a body within the limit whole", async () => {
    const read = await readBounded(body([bytes(3), bytes(4, 98)]).stream, { maxBytes: 7 });
    expect(read.outcome).toBe("complete");
    expect(read.outcome === "complete" && new TextDecoder().decode(read.bytes)).toBe("aaabbbb");
  });

  it("refuses a declared length over the limit without reading a byte", async () => {
    const source = body([bytes(10)]);
    expect(await readBounded(source.stream, { maxBytes: 5, declaredLength: "10" })).toMatchObject({ outcome: "too_large", declared: true });
    expect(source.pulled()).toBe(0);
  });

  it("stops reading at the limit, keeping only the first maxBytes", async () => {
    const source = body([bytes(4), bytes(4, 98), bytes(4, 99), bytes(4, 100)]);
    const read = await readBounded(source.stream, { maxBytes: 6 });
    expect(read.outcome).toBe("too_large");
    expect(read.outcome === "too_large" && new TextDecoder().decode(read.bytes)).toBe("aaaabb");
    expect(source.pulled()).toBeLessThanOrEqual(3);
  });

  it("gives up on a body slower than its time, saying how much came", async () => {
    const read = await readBounded(body([bytes(5)], { hangAfter: 1 }).stream, { maxBytes: 100, timeoutMs: 50 });
    expect(read).toMatchObject({ outcome: "too_slow", receivedBytes: 5 });
  });

  it("reports a body that broke off with the error it broke with, never throwing", async () => {
    const read = await readBounded(body([bytes(2)], { failAfter: 1 }).stream, { maxBytes: 100 });
    expect(read).toMatchObject({ outcome: "aborted", receivedBytes: 2 });
    expect(read.outcome === "aborted" && (read.error as Error).message).toBe("socket hang up");
  });

  it("reads no body as an empty one", async () => {
    expect(await readBounded(null, { maxBytes: 1 })).toMatchObject({ outcome: "complete", bytes: new Uint8Array(0) });
  });
});
