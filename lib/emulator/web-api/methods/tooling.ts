/** tooling.tokens.rotate: an app configuration token's refresh token for a new pair (see tokens/config-tokens.ts). */
import { configTokenAnswer, rotateConfigToken } from "../../tokens/config-tokens";
import type { MethodDefinition } from "../../types";

const toolingTokensRotate: MethodDefinition = {
  name: "tooling.tokens.rotate",
  tier: "special",
  // The refresh token is the credential: the call needs no token, as on the platform.
  auth: "none",
  handler(ctx) {
    const pair = rotateConfigToken(ctx.state, ctx.params.refresh_token, ctx.clock.now(), ctx.options.refreshGraceSeconds);
    return configTokenAnswer(pair);
  },
};

export const toolingMethods: MethodDefinition[] = [toolingTokensRotate];
