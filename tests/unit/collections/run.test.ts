import { describe, expect, it } from "vitest";
import { bindArguments, runCollection, valueAtPath, type StepAnswer } from "@/lib/collections/universal/run";
import type { RequestFields } from "@/lib/collections/universal/model";

const request = (id: string, method: string, extra: Partial<RequestFields> = {}): RequestFields & { id: string } => ({
  id,
  name: id,
  method,
  httpMethod: "GET",
  encoding: "form",
  tokenKind: "bot",
  args: [],
  bindings: [],
  ...extra,
});

/** A step's answer as /api/call gives it: the runner is under test, the platform's answers are the test's. */
const answer = (body: unknown, httpStatus = 200): StepAnswer => ({ httpStatus, body, upstreamMs: 3, roundTripMs: 5 });

describe("values taken from one answer into the next", () => {
  it("reads a dotted path, array indexes included, and nothing past a missing part", () => {
    const body = { ok: true, channel: { id: "C1", members: ["U1", "U2"] } };
    expect(valueAtPath(body, "channel.id")).toBe("C1");
    expect(valueAtPath(body, "channel.members.1")).toBe("U2");
    expect(valueAtPath(body, "channel.name")).toBeUndefined();
    expect(valueAtPath(body, "channel.id.more")).toBeUndefined();
    // Only the answer's own fields: not what every object inherits.
    expect(valueAtPath(body, "channel.constructor")).toBeUndefined();
  });

  it("fills an argument from an earlier step (replacing a value written), or says why it cannot", () => {
    const step2 = { args: [{ key: "channel", value: "old" }], bindings: [{ param: "channel", step: 1, path: "channel.id" }] };
    expect(bindArguments(step2, 1, [{ ok: true, channel: { id: "C9" } }])).toEqual({ args: [{ key: "channel", value: "C9" }] });
    expect(bindArguments(step2, 1, [{ ok: true }])).toEqual({ error: "channel takes step 1's channel.id, which step 1's answer does not have." });
    // Run alone (its run's first step), nothing answered before it.
    expect(bindArguments(step2, 0, [])).toEqual({
      error: "channel takes step 1's channel.id, which this run does not answer before it: run the whole collection, in an order where step 1 comes first.",
    });
    // A value that is not text travels as JSON.
    expect(bindArguments({ args: [], bindings: [{ param: "users", step: 1, path: "ids" }] }, 1, [{ ids: ["U1", "U2"] }])).toEqual({
      args: [{ key: "users", value: '["U1","U2"]' }],
    });
  });
});

describe("a run", () => {
  it("calls each step in order with values from earlier answers, and keeps every answer with its timing", async () => {
    const sent: Array<{ id: string; args: unknown }> = [];
    const steps = await runCollection({
      requests: [request("create", "chat.postMessage"), request("read", "conversations.info", { bindings: [{ param: "channel", step: 1, path: "channel" }] })],
      continueOnError: false,
      call: async (r, args) => {
        sent.push({ id: r.id, args });
        return r.id === "create" ? answer({ ok: true, channel: "C42", ts: "1.2" }) : answer({ ok: true, channel: { id: "C42", name: "general" } });
      },
    });
    expect(sent).toEqual([
      { id: "create", args: [] },
      { id: "read", args: [{ key: "channel", value: "C42" }] },
    ]);
    expect(steps.map((s) => s.outcome)).toEqual([
      expect.objectContaining({ status: "answered", ok: true, upstreamMs: 3, roundTripMs: 5 }),
      expect.objectContaining({ status: "answered", ok: true, body: { ok: true, channel: { id: "C42", name: "general" } } }),
    ]);
  });

  it("stops at the first ok: false (the rest not run), or goes on when told; a missing path stops its step with its reason", async () => {
    const requests = [
      request("fails", "conversations.info"),
      request("bound", "conversations.history", { bindings: [{ param: "channel", step: 1, path: "channel.id" }] }),
      request("last", "auth.test"),
    ];
    const call = async (r: { id: string }) => (r.id === "fails" ? answer({ ok: false, error: "channel_not_found" }) : answer({ ok: true }));
    const stopped = await runCollection({ requests, continueOnError: false, call });
    expect(stopped.map((s) => s.outcome.status)).toEqual(["answered", "skipped", "skipped"]);
    expect(stopped[0]!.outcome).toMatchObject({ ok: false, error: "channel_not_found" });

    const onward = await runCollection({ requests, continueOnError: true, call });
    expect(onward.map((s) => s.outcome)).toEqual([
      expect.objectContaining({ status: "answered", ok: false }),
      { status: "not_sent", error: "channel takes step 1's channel.id, which step 1's answer does not have." },
      expect.objectContaining({ status: "answered", ok: true }),
    ]);
  });

  it("counts an answer the console gave itself (a 404 for an installation not yours) as a failed step", async () => {
    const steps = await runCollection({
      requests: [request("a", "auth.test"), request("b", "auth.test")],
      continueOnError: false,
      call: async () => answer({ ok: false, error: "unknown_installation", message: "No installation with this id." }, 404),
    });
    expect(steps.map((s) => s.outcome)).toEqual([
      expect.objectContaining({ ok: false, error: "unknown_installation", httpStatus: 404 }),
      { status: "skipped" },
    ]);
  });
});
