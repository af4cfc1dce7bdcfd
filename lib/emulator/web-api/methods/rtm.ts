/**
 * rtm.connect exists on the platform only for classic apps' bot tokens (spec 4.3, 9 in docs/spec/web-api.md). Every app the
 * emulator knows is a modern app with granular scopes (the "legacy" default app is modern too, only
 * without token rotation), so the method answers as the platform does to a granular token.
 */
import { WebApiError } from "../../core/errors";
import type { MethodDefinition } from "../../types";

const rtmConnect: MethodDefinition = {
  name: "rtm.connect",
  tier: 1,
  auth: "token",
  handler() {
    throw new WebApiError("not_allowed_token_type");
  },
};

export const rtmMethods: MethodDefinition[] = [rtmConnect];
