/**
 * The console faces the platform here (PLATFORM_BASE_URL, the emulator standing in for it), over https, where
 * the manifest API is the only way in and the pasted pair is kept on the server, in no cookie. (The emulator
 * standing in says it is one, so its "Generate token" helper now serves it as a standalone emulator's:
 * tests/unit/emulator-admin/standalone-upstream.slow.test.ts; the real platform's refusal is
 * platform-upstream.slow.test.ts, against a server that is no emulator.)
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { GET as overviewRoute } from "@/app/api/app-config/route";
import { GET as settingsRoute } from "@/app/api/app-config/apps/[appId]/route";
import { POST as tokenRoute } from "@/app/api/app-config/token/route";
import { openTestStore } from "../support/store";
import { issueConfigToken, startAppConfigConsole, type AppConfigConsole } from "./support/console";

let console: AppConfigConsole;

beforeAll(async () => {
  console = await startAppConfigConsole("platform", { appOrigin: "https://console.example" });
  await openTestStore();
});
afterAll(() => console.close());

it("asks for a configuration token against the platform, then keeps it on the server, setting no cookie", async () => {
  const b = console.browser();
  const { rotation } = await console.appIds();
  const overview = await b.send(overviewRoute, "/api/app-config");
  expect(await overview.json()).toMatchObject({ backend: null, configToken: null, upstream: { kind: "platform" } });
  const before = await b.send(settingsRoute, `/api/app-config/apps/${rotation}`, { params: { appId: rotation } });
  expect(before.status).toBe(409);
  expect(await before.json()).toMatchObject({ error: "config_token_required", message: expect.stringContaining("Your Apps") });

  const pair = await issueConfigToken(console);
  const pasted = await b.send(tokenRoute, "/api/app-config/token", { method: "POST", json: { token: pair.token, refreshToken: pair.refresh_token } });
  expect(pasted.status).toBe(200);
  expect(pasted.headers.getSetCookie()).toEqual([]);

  const after = await b.send(settingsRoute, `/api/app-config/apps/${rotation}`, { params: { appId: rotation } });
  expect(after.status).toBe(200);
  expect(await after.json()).toMatchObject({ backend: "manifest-api", name: "Switchboard Rotation" });
});
