/**
 * Who is signed in to the emulated platform in this browser: the member picked last on the "Sign in with"
 * page, remembered in a cookie of the emulator's own (its path, so the console mounted beside it never reads
 * it). The platform keeps a person signed in, and its consent and sign-in pages then open on that person's
 * workspace with them as who allows: the emulator's pages do the same with this cookie.
 *
 * The cookie is not sealed: it only preselects, on pages where anyone may pick any member (the emulator has
 * no accounts), so a forged one grants nothing. It is read back only when it names a member who can sign in.
 */
import type { RequestContext } from "../types";
import type { Workspace } from "../workspace/workspace";
import { canSignIn } from "./claims";

const COOKIE = "emulator_signed_in";
/** As long as the platform keeps a browser signed in: two weeks without a new sign-in. */
const MAX_AGE_S = 14 * 24 * 3600;
const VALUE = /^(T[0-9A-Z]{1,31})\.([UW][0-9A-Z]{1,31})$/;

export interface SignedInMember {
  ws: Workspace;
  userId: string;
}

/** The member this browser signed in as, when the cookie names one who still can. */
export function readSignedInMember(ctx: RequestContext): SignedInMember | undefined {
  const header = ctx.request.headers.get("cookie") ?? "";
  for (const part of header.split(";")) {
    const [name, value = ""] = part.trim().split("=");
    if (name !== COOKIE) continue;
    const match = VALUE.exec(value);
    const ws = match ? ctx.state.workspaces.get(match[1]!) : undefined;
    if (ws && canSignIn(ws, match![2]!)) return { ws, userId: match![2]! };
  }
  return undefined;
}

/** The Set-Cookie header that remembers `userId` of `ws` as signed in in this browser. */
export function signedInCookie(ctx: RequestContext, ws: Workspace, userId: string): string {
  const secure = new URL(ctx.baseUrl).protocol === "https:" ? "; Secure" : "";
  return `${COOKIE}=${ws.team.id}.${userId}; Path=${ctx.options.basePath || "/"}; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`;
}
