import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callAllRoute } from "@/app/api/call/[method]/all/route";
import { GET as callGet, POST as callPost } from "@/app/api/call/[method]/route";
import { DELETE as forgetRoute } from "@/app/api/installations/[id]/route";
import { POST as uninstallRoute } from "@/app/api/installations/[id]/uninstall/route";
import { POST as exchangeRoute } from "@/app/api/tokens/exchange/route";
import { POST as refreshRoute } from "@/app/api/tokens/refresh/route";
import { POST as revokeRoute } from "@/app/api/tokens/revoke/route";
import { POST as testRoute } from "@/app/api/tokens/test/route";
import { startTestConsole, TestBrowser, type TestConsole, type RouteFn } from "../support/console";
import { installIn } from "../support/install";

// Issue 25: a malformed id and an unknown one are alike to every route that takes an installation: 404
// unknown_installation (before, /api/call answered a malformed one 422 and its /all 404).
let testConsole: TestConsole;
let browser: TestBrowser;
beforeAll(async () => {
  testConsole = await startTestConsole();
  browser = new TestBrowser(testConsole.origin);
  // One real installation exists, so "unknown" is not merely "the store is empty".
  expect((await installIn(browser)).status).toBe(303);
});
afterAll(() => testConsole.close());

const IDS = {
  malformed: "../not an id!",
  "too long": "T".repeat(200),
  unknown: "T0NOPE-A0NOPE",
};

type Send = (id: string) => Promise<Response>;
const ROUTES: Record<string, Send> = {
  "GET /api/call/{method}": (id) => browser.send(callGet, `/api/call/auth.test?installation=${encodeURIComponent(id)}`, { params: { method: "auth.test" } }),
  "POST /api/call/{method}": (id) =>
    browser.send(callPost, `/api/call/auth.test?installation=${encodeURIComponent(id)}`, { method: "POST", json: {}, params: { method: "auth.test" } }),
  "GET /api/call/{method}/all": (id) =>
    browser.send(callAllRoute as RouteFn, `/api/call/users.list/all?installation=${encodeURIComponent(id)}`, { params: { method: "users.list" } }),
  "POST /api/tokens/test": (id) => browser.send(testRoute, "/api/tokens/test", { method: "POST", json: { installation: id, token: "bot" } }),
  "POST /api/tokens/refresh": (id) => browser.send(refreshRoute, "/api/tokens/refresh", { method: "POST", json: { installation: id, token: "bot" } }),
  "POST /api/tokens/revoke": (id) => browser.send(revokeRoute, "/api/tokens/revoke", { method: "POST", json: { installation: id, token: "bot" } }),
  "POST /api/tokens/exchange": (id) =>
    browser.send(exchangeRoute, "/api/tokens/exchange", { method: "POST", json: { installation: id, token: "bot", confirm: true } }),
  "POST /api/installations/{id}/uninstall": (id) =>
    browser.send(uninstallRoute, `/api/installations/${encodeURIComponent(id)}/uninstall`, { method: "POST", params: { id } }),
  "DELETE /api/installations/{id}": (id) => browser.send(forgetRoute, `/api/installations/${encodeURIComponent(id)}`, { method: "DELETE", params: { id } }),
};

describe("an installation id that names no installation", () => {
  for (const [route, send] of Object.entries(ROUTES)) {
    for (const [what, id] of Object.entries(IDS)) {
      it(`${route} answers a ${what} id 404 unknown_installation`, async () => {
        const response = await send(id);
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({ ok: false, error: "unknown_installation" });
      });
    }
  }
});
