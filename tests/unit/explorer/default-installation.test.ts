import { describe, expect, it } from "vitest";
import { defaultInstallation } from "@/lib/explorer/default-installation";

const installation = (id: string, state: "active" | "needs_reinstall", uninstalledAt: number | null = null) => ({ id, state, uninstalledAt });

describe("the installation the explorer calls with by default", () => {
  it("is the first that works, even when one that needs reinstalling comes before it", () => {
    expect(defaultInstallation([installation("legacy", "needs_reinstall"), installation("console", "active")])?.id).toBe("console");
    expect(defaultInstallation([installation("gone", "active", 1_700_000_000_000), installation("console", "active")])?.id).toBe("console");
  });

  it("is the first one when none works, and none when there is none", () => {
    expect(defaultInstallation([installation("a", "needs_reinstall"), installation("b", "needs_reinstall")])?.id).toBe("a");
    expect(defaultInstallation([])).toBeUndefined();
  });
});
