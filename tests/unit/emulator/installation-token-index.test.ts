/**
 * Issue 43: at 100,000 installations a refresh drain makes 100,000 refreshes, and each one's active-token limit
 * (spec 3, row 5) walked every token of the platform (400,000 and more). The emulator now keeps each
 * installation's tokens indexed: a refresh looks at its own installation's, and the limit holds as before,
 * also for tokens that came into the map another way than an issue (a load, a test), which rebuild the index.
 */
import { describe, expect, it } from "vitest";
import type { TokenRecord } from "@/lib/emulator/types";
import { createHarness } from "./support/emulator-harness";

describe("the emulator's tokens by installation", () => {
  it("refreshes without walking every token of the platform", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    const second = await h.refresh(rotation, installed.refresh_token);
    // Every walk of the whole token map from here on is counted.
    const tokens = h.emulator.state.tokens;
    const values = tokens.values.bind(tokens);
    let walks = 0;
    tokens.values = () => {
      walks++;
      return values();
    };
    try {
      const third = await h.refresh(rotation, second.refresh_token);
      const fourth = await h.refresh(rotation, third.refresh_token);
      expect(walks).toBe(0);
      // The limit still holds: the oldest extra access tokens were revoked.
      expect(await h.authTest(second.access_token)).toEqual({ ok: false, error: "token_revoked" });
      expect((await h.authTest(third.access_token)).ok).toBe(true);
      expect((await h.authTest(fourth.access_token)).ok).toBe(true);
    } finally {
      tokens.values = values;
    }
  });

  it("keeps the active-token limit for a token put in the map without being issued (the index is built again)", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const installed = await h.install(rotation);
    const second = await h.refresh(rotation, installed.refresh_token);
    // An older active access token of the same installation, put in as a load from a data dir would.
    const record = h.emulator.state.tokens.get(second.access_token)!;
    const planted: TokenRecord = { ...record, value: "xoxe.xoxb-1-planted", issuedAt: record.issuedAt - 1 };
    h.emulator.state.tokens.set(planted.value, planted);
    expect((await h.authTest(planted.value)).ok).toBe(true);
    const third = await h.refresh(rotation, second.refresh_token);
    // Four active bot access tokens before the limit (the first, the planted, the second, the third): the two oldest go.
    expect(await h.authTest(installed.access_token)).toEqual({ ok: false, error: "token_revoked" });
    expect(await h.authTest(planted.value)).toEqual({ ok: false, error: "token_revoked" });
    expect((await h.authTest(second.access_token)).ok).toBe(true);
    expect((await h.authTest(third.access_token)).ok).toBe(true);
  });
});
