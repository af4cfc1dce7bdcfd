import { describe, expect, it } from "vitest";
import { installationFromGrant } from "@/lib/installations/record";
import { mergeWrite } from "@/lib/installations/merge-write";
import { reshapeTokenGrant } from "@/lib/platform/oauth";

/**
 * Which emulator issued an installation's tokens (upstream-instance.ts) survives a write that raced a
 * reinstall: a late write of the record read before it must not put back the old instance, which the next
 * read would take for a replaced emulator and mark the live installation for reinstall.
 */
function grant(n: number) {
  return reshapeTokenGrant({
    ok: true,
    app_id: "A1",
    team: { id: "T1", name: "Acme" },
    enterprise: null,
    is_enterprise_install: false,
    access_token: `xoxe.xoxb-1-bot${n}`,
    refresh_token: `xoxe-1-botrefresh${n}`,
    expires_in: 43200,
    token_type: "bot",
    scope: "chat:write",
    bot_user_id: "UBOT",
    authed_user: { id: "UANA" },
  });
}

describe("a write racing a reinstall on a new emulator", () => {
  const before = { ...installationFromGrant(grant(1), "console", 1_000), upstreamInstanceId: "emu-old", botId: "BOLD" };
  const reinstalled = { ...installationFromGrant(grant(2), "console", 3_000, before), upstreamInstanceId: "emu-new", botId: "BNEW" };

  it("keeps the reinstall's emulator and bot id when a write of the record read before it lands after", () => {
    // A Test press that read the record before the reinstall, saving its entry after it.
    const late = { ...before, updatedAt: 4_000 };
    expect(mergeWrite(late, reinstalled)).toMatchObject({ upstreamInstanceId: "emu-new", botId: "BNEW" });
  });

  it("keeps this write's when it is the newer grant", () => {
    expect(mergeWrite(reinstalled, before)).toMatchObject({ upstreamInstanceId: "emu-new", botId: "BNEW" });
  });
});
