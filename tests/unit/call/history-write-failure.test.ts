import { describe, expect, it } from "vitest";
import { allHistoryWritesSettled, historyWritesSettled, recordCallAfterAnswer } from "@/lib/call/call-history";
import type { PlatformCallResult } from "@/lib/platform/call-method";
import type { Viewer } from "@/lib/viewer";

/**
 * A history write that fails while preparing its entry (before the store is reached) is logged and dropped:
 * it must not reject, or the person's next read of the history (which waits for their pending writes)
 * would fail with it, and the process would see an unhandled rejection.
 */
describe("a history write that fails", () => {
  it("is dropped without failing the person's next read or the shutdown's wait", async () => {
    const viewer: Viewer = { kind: "member", userId: "U1", teamId: "T1", name: "Ada" } as Viewer;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      // An answer whose text cannot be read: preparing the entry throws.
      const result = {
        ok: true,
        status: 200,
        body: { ok: true },
        get rawText(): string {
          throw new Error("the answer could not be decoded");
        },
        bytes: new Uint8Array(0),
        headers: new Headers(),
        durationMs: 1,
      } as unknown as PlatformCallResult;
      recordCallAfterAnswer(
        { viewer, method: "users.list", installationId: "i1", tokenKind: "bot", httpMethod: "GET", encoding: "form", args: {}, dropped: [] },
        result,
        Date.now(),
      );
      await expect(historyWritesSettled("T1:U1")).resolves.toBeUndefined();
      await expect(allHistoryWritesSettled()).resolves.toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
