/** apps.uninstall: the app's credentials plus a token of the installation; every token is revoked. */
import { WebApiError } from "../../core/errors";
import { uninstallWithEvents } from "../../events/app-lifecycle-events";
import { readClientCredentials, requireClientApp } from "../request-params";
import type { Caller, MethodDefinition } from "../../types";

const appsUninstall: MethodDefinition = {
  name: "apps.uninstall",
  tier: 1,
  auth: "token",
  handler(ctx) {
    const { installation, app } = ctx.caller as Caller;
    const clientApp = requireClientApp(ctx.state, readClientCredentials(ctx.request, ctx.params));
    if (clientApp.id !== app.id) throw new WebApiError("client_id_token_mismatch");
    uninstallWithEvents(ctx, installation);
    return {};
  },
};

export const appsMethods: MethodDefinition[] = [appsUninstall];
