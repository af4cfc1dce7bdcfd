import { afterAll, beforeAll, expect, it } from "vitest";
import { POST as generateRoute } from "@/app/api/app-config/apps/[appId]/app-tokens/route";
import { GET as socketModeRoute } from "@/app/api/app-config/apps/[appId]/socket-mode/route";
import { startAppConfigConsole, type AppConfigConsole } from "./support/console";

/**
 * Against the platform (PLATFORM_BASE_URL: the emulator standing in for it, used only as the platform would
 * be), app-level tokens and the Socket Mode switch have no API: the panel says where to make them, and the
 * console makes none, even where the upstream would have answered its admin surface.
 */
let console: AppConfigConsole;
let appId: string;

beforeAll(async () => {
  console = await startAppConfigConsole("platform");
  appId = (await console.appIds()).rotation;
});
afterAll(() => console.close());

it("answers that Socket Mode is made on the platform, and refuses to generate an app-level token there", async () => {
  const b = console.browser();
  const read = await b.send(socketModeRoute, `/api/app-config/apps/${appId}/socket-mode`, { params: { appId } });
  expect(read.status).toBe(200);
  expect(await read.json()).toEqual({ available: false, appId });
  const made = await b.send(generateRoute, `/api/app-config/apps/${appId}/app-tokens`, {
    method: "POST",
    json: { name: "socket", scopes: ["connections:write"] },
    params: { appId },
  });
  expect(made.status).toBe(404);
  expect(await made.json()).toMatchObject({ error: "not_emulator" });
  const { tokens } = await console.admin<{ tokens: unknown[] }>(`apps/${appId}/app-tokens`);
  expect(tokens).toEqual([]);
});
