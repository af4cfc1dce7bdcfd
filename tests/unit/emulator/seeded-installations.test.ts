import { describe, expect, it } from "vitest";
import { seedInstallations } from "@/lib/emulator/oauth/seeded-installations";
import { startEmulator } from "./workspace/support";

describe("seeded installations (POST /admin/installations/seed)", () => {
  it("never gives two installations one id, even when the random source repeats itself", () => {
    const { emulator, clock } = startEmulator();
    const state = emulator.state;
    const app = [...state.apps.values()].find((a) => a.tokenRotationEnabled)!;
    // The first two draws clash: the second installation must draw again, not replace the first.
    const ids = ["I0AAAAAAAAA", "I0AAAAAAAAA", "I0BBBBBBBBB"];
    const spec = { count: 2, first: 0, namePrefix: "Acme", digits: 5, rotatingShare: 1, userShare: 0, users: 3 };
    const seeded = seedInstallations(state, app, spec, "clash", clock.now(), () => ids.shift()!);

    expect(seeded.map((s) => s.installation.id)).toEqual(["I0AAAAAAAAA", "I0BBBBBBBBB"]);
    for (const s of seeded) {
      // Each installation is still there, in its own workspace, and its refresh token resolves to it.
      expect(state.installations.get(s.installation.id)?.teamId).toBe(s.team.id);
      const refresh = [...state.tokens.values()].find((t) => t.value === s.bot.refreshToken);
      expect(refresh?.installationId).toBe(s.installation.id);
    }
  });
});
