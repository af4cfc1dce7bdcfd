/**
 * The configured apps after a restart on a data directory: the saved apps are the platform's (their settings as
 * the developer left them), but where the process is reached may have changed since (the console on another
 * port, APP_ORIGIN): the redirect URLs it was configured with are added to its apps, and a request URL it may no
 * longer deliver to (`eventRequestUrls`) gives way to the configured one, verified again. A verification the last
 * process did not see finish is made again: nobody is waiting for its answer any more.
 */
import { touch } from "../core/change-tracking";
import { verifyRequestUrl } from "../events/url-verification";
import type { App, EmulatorState, ResolvedOptions } from "../types";
import { isAllowedRequestUrl } from "./registry";

export function settleRestoredApps(state: EmulatorState, configured: App[], options: ResolvedOptions): void {
  for (const wanted of configured) {
    const app = state.apps.get(wanted.id);
    if (!app) continue;
    const missing = wanted.redirectUrls.filter((url) => !app.redirectUrls.includes(url));
    const staleRequestUrl =
      app.eventsRequestUrl !== undefined && !isAllowedRequestUrl(options, app.eventsRequestUrl) && app.eventsRequestUrl !== wanted.eventsRequestUrl;
    if (missing.length === 0 && !staleRequestUrl) continue;
    app.redirectUrls = [...app.redirectUrls, ...missing];
    const oauth = app.manifest.oauth_config ?? {};
    app.manifest = { ...app.manifest, oauth_config: { ...oauth, redirect_urls: app.redirectUrls } };
    if (staleRequestUrl) {
      app.eventsRequestUrl = wanted.eventsRequestUrl;
      const subscriptions = app.manifest.settings?.event_subscriptions;
      if (subscriptions)
        app.manifest = {
          ...app.manifest,
          settings: { ...app.manifest.settings, event_subscriptions: { ...subscriptions, request_url: wanted.eventsRequestUrl } },
        };
      void verifyRequestUrl(app, options);
    }
    touch(app);
  }
  for (const app of state.apps.values()) if (app.requestUrlVerification?.state === "pending") void verifyRequestUrl(app, options);
}
