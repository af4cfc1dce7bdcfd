import "server-only";
import type { Viewer } from "@/lib/viewer";
import { AppError } from "@/lib/http/app-error";
import type { InstallationRecord } from "@/lib/installations/record";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { requireInstallation, requireManager, requireTokenManager } from "@/lib/installations/visibility";

/**
 * Methods that end an authorization (or hand out one that replaces it): through the explorer they are what
 * Revoke, Uninstall and Exchange are, so they are for the same people (lib/access): admins and the member
 * who installed.
 */
const AUTHORIZATION_METHODS = /^(auth\.revoke|apps\.uninstall|oauth\.v2\.exchange|oauth\.v2\.access|tooling\.tokens\.rotate)$/;

/**
 * What a member may call through the explorer: any method with the installation's bot token, and with their
 * own user token (user tokens belong to people: lib/installations/user-tokens.ts), which a member without one
 * does not have; a method that ends an authorization is a manager's (auth.revoke of one's own user token, one's own).
 * A foreign or unknown installation answers 404 first (requireInstallation). Answers the installation as the
 * viewer sees it, read once for the rights and the call.
 */
export async function requireCallableInstallation(viewer: Viewer, installationId: string, kind: TokenKind, method: string): Promise<InstallationRecord> {
  const installation = await requireInstallation(viewer, installationId);
  // Without one of their own while others hold theirs, a member is told why (else requireToken's no_token says it).
  if (kind === "user" && !installation.user && Object.keys(installation.userTokens ?? {}).length > 0) throw noOwnUserToken();
  if (method === "auth.revoke") requireTokenManager(viewer, installation, kind, `call ${method} with its ${kind} token`);
  else if (AUTHORIZATION_METHODS.test(method)) requireManager(viewer, installation, `call ${method} with its tokens`);
  return installation;
}

/** A member asked to act with a user token of this installation and holds none of their own. */
function noOwnUserToken(): AppError {
  return new AppError("no_token", {
    message:
      "You have no user token in this installation: user tokens belong to the people who installed with user scopes. Install the app yourself (Reinstall) to get your own.",
  });
}
