/**
 * The tokens an installation card shows, each with its state now and the transitions this person may take
 * from it: what the rows' buttons and the lifecycle diagram both read.
 */
import { tokenFactsOf, type InstallationView, type TokenView } from "@/lib/installations/universal/view";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { consoleTransitionsFor, holdsRefreshToken, tokenStateAt, type InstallationPhase, type KnownRotation } from "@/lib/installations/universal/lifecycle";
import type { DiagramToken } from "./lifecycle-diagram";

export const KIND_LABEL: Record<TokenKind, string> = { bot: "bot token", user: "user token" };

export interface HeldToken {
  kind: TokenKind;
  token: TokenView;
  owner: string | null;
  diagram: DiagramToken;
}

/** Transitions for an admin and the member who installed (lib/access): a member who did not sees them in the diagram only. */
const MANAGERS_ONLY = new Set<string>(["revoke_with_rotation", "revoke_without_rotation", "exchange", "turn_on_rotation", "uninstall"]);
/** A member may revoke the rotating user token that is their own (user tokens belong to people); a long-lived one's revoke ends the installation. */
const OWN_TOKEN_REVOKES = new Set<string>(["revoke_with_rotation"]);

export interface Viewing {
  phase: InstallationPhase;
  now: number;
  /** The app's rotation setting as far as it is known; "loading" until the answer comes. */
  rotation: KnownRotation | "loading";
  /** An admin, or the member who installed it. */
  canManage: boolean;
  /** The signed-in person's user id; null without sign-in. */
  viewerId: string | null;
}

/** Whether the installation holds a live long-lived token: the only kind whose buttons depend on the app's rotation setting. */
export function holdsLongLived(installation: InstallationView, phase: InstallationPhase): boolean {
  return phase === "active" && (["bot", "user"] as const).some((kind) => installation[kind] && !installation[kind].rotating && !installation[kind].revoked);
}

export function heldTokens(installation: InstallationView, { phase, now, rotation, canManage, viewerId }: Viewing): HeldToken[] {
  return (["bot", "user"] as const).flatMap((kind) => {
    const token = installation[kind];
    if (!token) return [];
    const facts = tokenFactsOf(token);
    const state = tokenStateAt(facts, phase, now);
    return [
      {
        kind,
        token,
        owner: kind === "bot" ? installation.botUserId : (installation.userHolder ?? installation.authedUserId),
        diagram: {
          kind,
          state,
          holdsRefresh: holdsRefreshToken(facts, phase),
          // A long-lived token's buttons wait for the app's rotation setting rather than change under the pointer.
          transitions: (state === "long_lived" && rotation === "loading"
            ? []
            : consoleTransitionsFor(facts, phase, now, rotation === "loading" ? null : rotation)
          ).filter(
            (t) =>
              canManage ||
              !MANAGERS_ONLY.has(t.id) ||
              (kind === "user" && viewerId !== null && installation.userHolder === viewerId && token.rotating && OWN_TOKEN_REVOKES.has(t.id)),
          ),
        },
      },
    ];
  });
}
