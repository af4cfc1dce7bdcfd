import { describe, expect, it } from "vitest";
import { walkAllPages, type UpstreamPage } from "@/lib/explorer/fetch-all";
import { callMethod, inProcessTransport } from "@/lib/platform";
import { createHarness } from "../emulator/support/emulator-harness";

/**
 * The embedded emulator answers in the console's own process: nothing in a call waits on I/O, so a walk of
 * one-item pages, call after call, must hand the event loop back between its pages or no other request
 * (another session's page, /api/health) is served until it ends (issue 23, item 4).
 */
describe("calls answered in this process", () => {
  it("let a timer due now run between the pages of a walk, and the walk still gets every member", async () => {
    const harness = createHarness({ users: 120 });
    const { rotation } = await harness.apps();
    const token = (await harness.install(rotation)).access_token as string;
    const transport = inProcessTransport((request) => harness.emulator.fetch(request));
    const call = async (params: Record<string, string>, signal: AbortSignal): Promise<UpstreamPage> => {
      const result = await callMethod({ baseUrl: harness.base, token, method: "users.list", params, httpMethod: "GET", signal, transport });
      return { status: result.status, body: result.body, rawText: result.rawText, durationMs: result.durationMs };
    };

    let timerFiredAtPage: number | null = null;
    let pages = 0;
    let members = 0;
    setTimeout(() => (timerFiredAtPage = pages), 0);
    for await (const step of walkAllPages({ call, params: { limit: "1" }, maxPages: 1000, signal: new AbortController().signal })) {
      if (step.event.type === "page") {
        pages = step.event.page;
        members = step.event.total;
      }
    }
    const state = (await harness.admin("state")).body as { team: { members: number } };
    expect(members).toBe(state.team.members);
    expect(pages).toBeGreaterThan(100);
    // A timer is due at the loop's next turn: it runs within the first few pages, not after the last.
    expect(timerFiredAtPage).not.toBeNull();
    expect(timerFiredAtPage!).toBeLessThan(5);
  });
});
