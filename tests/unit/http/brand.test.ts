import { describe, expect, it, vi } from "vitest";

/**
 * Next.js loads a module once per module graph (instrumentation, each route bundle): the store opened by the
 * background refresher throws its own copy's VersionConflictError, which a route's retry must still know.
 * A second copy here is the same module loaded again after vi.resetModules().
 */
async function twoCopies() {
  const load = async () => ({
    ...(await import("@/lib/http/app-error")),
    ...(await import("@/lib/platform/errors")),
    ...(await import("@/lib/store/errors")),
  });
  const first = await load();
  vi.resetModules();
  const second = await load();
  return [first, second] as const;
}

describe("the console's error classes across module copies", () => {
  it("are instances of each other's classes, so a retry or an error answer made in one copy works in another", async () => {
    const [one, other] = await twoCopies();
    expect(one.AppError).not.toBe(other.AppError);
    expect(new one.VersionConflictError("T1-A1", 2, 3)).toBeInstanceOf(other.VersionConflictError);
    expect(new one.RefreshLockTimeoutError("k", 10)).toBeInstanceOf(other.RefreshLockTimeoutError);
    expect(new one.AppError("store_unavailable")).toBeInstanceOf(other.AppError);
    expect(other.isAppError(new one.AppError("not_allowed"))).toBe(true);
    const platform = new one.PlatformError("oauth.v2.access", { status: 200, body: { ok: false, error: "invalid_refresh_token" } } as never);
    expect(other.isPlatformError(platform, "invalid_refresh_token")).toBe(true);
    expect(platform).toBeInstanceOf(other.AppError);
  });

  it("are still told apart: an AppError is no PlatformError, a conflict no AppError, a plain Error none of them", async () => {
    const [one, other] = await twoCopies();
    expect(new one.AppError("not_allowed")).not.toBeInstanceOf(other.PlatformError);
    expect(new one.VersionConflictError("T1-A1", 2, 3)).not.toBeInstanceOf(other.AppError);
    expect(new Error("x")).not.toBeInstanceOf(other.AppError);
    expect(null).not.toBeInstanceOf(other.AppError);
    expect(Object.assign(new Error("x"), { name: "AppError", code: "not_allowed" })).not.toBeInstanceOf(other.AppError);
  });
});
