import { App, LogLevel } from "@slack/bolt";
import { expect, type APIRequestContext } from "@playwright/test";
import { postEmulatorAdmin } from "./emulator-admin";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads any field of the platform's answers

const REDIRECT = "http://localhost:3000/oauth/callback";

/**
 * A fresh emulator with `manifest`'s app created, installed by a person (Allow on the consent page) and run
 * as an unmodified @slack/bolt App over Socket Mode against the embedded emulator. `listen` adds the app's
 * listeners before it connects.
 */
export async function startSocketModeApp(
  request: APIRequestContext,
  baseURL: string,
  manifest: Json,
  listen: (bolt: App) => void,
): Promise<{ bolt: App; appId: string; botToken: string }> {
  await postEmulatorAdmin(request, "reset", {});
  const created = (await (
    await postEmulatorAdmin(request, "apps", { ...manifest, oauth_config: { ...manifest.oauth_config, redirect_urls: [REDIRECT] } })
  ).json()) as Json;
  expect(created.ok).toBe(true);
  const app = created.app as Json;
  const scopes = (manifest.oauth_config?.scopes?.bot ?? []) as string[];
  const authorize = new URL(`${baseURL}/emulator/oauth/v2/authorize`);
  for (const [k, v] of Object.entries({ client_id: app.client_id, scope: scopes.join(","), redirect_uri: REDIRECT, state: "s" }))
    authorize.searchParams.set(k, v);
  const allowed = await request.post(authorize.toString(), { form: { decision: "allow" }, maxRedirects: 0 });
  const code = new URL(allowed.headers().location ?? "http://x/").searchParams.get("code") ?? "";
  const access = (await (
    await request.post("/emulator/api/oauth.v2.access", { form: { code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: REDIRECT } })
  ).json()) as Json;
  expect(access.ok).toBe(true);
  const appToken = (await (await postEmulatorAdmin(request, `apps/${app.app_id}/app-tokens`, { name: "e2e" })).json()) as Json;
  const bolt = new App({
    token: access.access_token as string,
    appToken: appToken.token as string,
    socketMode: true,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: `${baseURL}/emulator/api/` },
  });
  listen(bolt);
  await bolt.start();
  return { bolt, appId: app.app_id as string, botToken: access.access_token as string };
}
