import { afterEach, describe, expect, it, vi } from "vitest";

const ORIGIN = "http://localhost:3998";

async function loadEmbedded() {
  vi.resetModules();
  for (const [key, value] of Object.entries({ PLATFORM_BASE_URL: "", APP_ORIGIN: ORIGIN, SESSION_PASSWORD: "x".repeat(32), LOG_LEVEL: "silent" }))
    vi.stubEnv(key, value);
  return import("@/lib/embedded-emulator");
}

/** A request whose body the caller's going away cancels, as Next.js hands a route a request whose client disconnected. */
function cancellableRequest(url: string, form: URLSearchParams, signal: AbortSignal): Request {
  const bytes = new TextEncoder().encode(form.toString());
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      signal.addEventListener("abort", () => controller.error(new Error("aborted")));
    },
    pull(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body, duplex: "half", signal } as RequestInit);
}

describe("the embedded emulator", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("takes a request into account once it has arrived, like the platform: a refresh whose caller gave up still spends the refresh token", async () => {
    const { getEmbeddedEmulator, handleEmbeddedEmulatorRequest } = await loadEmbedded();
    const emulator = getEmbeddedEmulator();
    const app = [...emulator.state.apps.values()].find((a) => a.tokenRotationEnabled)!;
    const base = `${ORIGIN}/emulator`;
    const authorize = `${base}/oauth/v2/authorize?${new URLSearchParams({ client_id: app.clientId, scope: "users:read", redirect_uri: `${ORIGIN}/oauth/callback` })}`;
    const consent = await handleEmbeddedEmulatorRequest(
      new Request(authorize, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "decision=allow" }),
    );
    const code = new URL(consent.headers.get("location")!).searchParams.get("code")!;
    const credentials = { client_id: app.clientId, client_secret: app.clientSecret };
    const granted = (await (
      await handleEmbeddedEmulatorRequest(new Request(`${base}/api/oauth.v2.access`, { method: "POST", body: new URLSearchParams({ ...credentials, code }) }))
    ).json()) as { refresh_token: string };

    // The platform is slow to answer the refresh; its caller gives up before the answer comes.
    emulator.state.faults.latencyMs = 200;
    emulator.state.faults.methods = ["oauth.v2.access"];
    const caller = new AbortController();
    const refresh = handleEmbeddedEmulatorRequest(
      cancellableRequest(
        `${base}/api/oauth.v2.access`,
        new URLSearchParams({ ...credentials, grant_type: "refresh_token", refresh_token: granted.refresh_token }),
        caller.signal,
      ),
    );
    setTimeout(() => caller.abort(), 50);
    const answer = (await (await refresh).json()) as { ok: boolean };
    expect(answer.ok).toBe(true);
    const [installation] = emulator.state.installations.values();
    expect(installation!.refreshGrants).toBe(1);
  });
});
