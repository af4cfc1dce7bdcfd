import { describe, expect, it } from "vitest";
import { findProcessSingleton, processSingleton } from "@/lib/process-singleton";

describe("a process-wide instance", () => {
  it("is made once and shared by every caller, as every route bundle of one server shares it", () => {
    let made = 0;
    const create = () => ({ id: ++made });
    const first = processSingleton("test.sharedThing", create);
    expect(processSingleton("test.sharedThing", create)).toBe(first);
    expect(made).toBe(1);
    // Another module loading of the same code (a route bundle, a dev reload) finds it under the same name.
    expect((globalThis as Record<symbol, unknown>)[Symbol.for("switchboard.test.sharedThing")]).toBe(first);
    expect(findProcessSingleton("test.sharedThing")).toBe(first);
    expect(findProcessSingleton("test.neverMade")).toBeUndefined();
  });
});
