import type { RefreshReason, TimelineEntry } from "./timeline";
import type { TokenKind } from "./token-kind";
import type { DeadTokenVerdict } from "./lifecycle";

/** How the installations page words a timeline entry (no zod here: this runs in the browser). */

const KIND_LABEL: Record<TokenKind, string> = { bot: "bot token", user: "user token" };

const REFRESH_REASON: Record<RefreshReason, string> = {
  proactive: "proactive: it was about to expire",
  on_expiry: "on expiry",
  requested: "on request",
  elsewhere: "by another request (kept result picked up)",
  scheduled: "in the background",
};

const EXCHANGE_ADVICE: Record<string, string> = {
  token_rotation_not_enabled: " The app does not have token rotation turned on: turn it on (App settings), then exchange. The token still works",
  token_already_exchanged: " A token is exchanged once: this one already was",
};

export interface TimelineText {
  title: string;
  detail: string;
  tone: "ok" | "error" | "warn" | "neutral";
}

/** A masked rotating token starts with xoxe. (maskToken keeps the prefix). */
const isRotatingMask = (masked: string) => masked.startsWith("xoxe.");

function verdictText(v: DeadTokenVerdict | undefined, kindLabel: string, masked: string): string {
  if (v === "needs_reinstall") return " The installation needs reinstalling.";
  if (v === "token_revoked" && isRotatingMask(masked)) return ` The ${kindLabel} is revoked: Refresh issues a new one.`;
  if (v === "token_revoked")
    return ` Only this long-lived ${kindLabel} is dead: the installation and its other token live on. Reinstall for a new ${kindLabel}.`;
  return "";
}

/** How a person reads an entry: a title and a sentence, with the tone of its badge. */
export function describeTimelineEntry(entry: TimelineEntry): TimelineText {
  // The id first: it is the platform's; the name is what the person chose to be called.
  const person = entry.who ? (entry.who.name ? `${entry.who.id} (${entry.who.name})` : entry.who.id) : "";
  const by = entry.by || person ? ` · by ${[person, entry.by].filter(Boolean).join(", ")}` : "";
  switch (entry.type) {
    case "installed":
    case "reinstalled":
      return {
        title: entry.type === "installed" ? "Installed" : "Reinstalled",
        detail: `${entry.tokens.length > 0 ? `Tokens issued: ${entry.tokens.join(", ")}` : "No tokens issued"}${by}`,
        tone: "ok",
      };
    case "tested": {
      const label = KIND_LABEL[entry.token];
      return entry.ok
        ? { title: `Tested ${label}: ok`, detail: `auth.test with ${entry.masked} answered ok${by}`, tone: "ok" }
        : {
            title: `Tested ${label}: ${entry.error ?? "error"}`,
            detail: `auth.test with ${entry.masked} answered ${entry.error ?? "an error"}.${verdictText(entry.verdict, label, entry.masked)}${by}`,
            tone: entry.verdict ? "error" : "warn",
          };
    }
    case "found_dead":
      return {
        title: `${KIND_LABEL[entry.token][0]!.toUpperCase()}${KIND_LABEL[entry.token].slice(1)} found dead: ${entry.error}`,
        detail: `The platform answered ${entry.error} to ${entry.masked}.${verdictText(entry.verdict, KIND_LABEL[entry.token], entry.masked)}${by}`,
        tone: "error",
      };
    case "refreshed":
      return { title: `Refreshed ${KIND_LABEL[entry.token]}`, detail: `${entry.from} → ${entry.to} · ${REFRESH_REASON[entry.reason]}${by}`, tone: "ok" };
    case "refresh_failed":
      return {
        title: `Refresh of ${KIND_LABEL[entry.token]} failed: ${entry.error}`,
        detail: `Refresh token ${entry.masked}.${entry.reinstall ? " The platform refused it for good: the installation needs reinstalling." : " Nothing was lost: try again."}${by}`,
        tone: "error",
      };
    case "revoked":
      return {
        title: `Revoked ${KIND_LABEL[entry.token]}`,
        detail:
          entry.scope === "token"
            ? `auth.revoke on ${entry.masked}: only this token (rotation). Refresh issues a new one${by}`
            : `auth.revoke on the long-lived ${entry.masked} revoked the installation's authorization: reinstall the app${by}`,
        tone: entry.scope === "token" ? "warn" : "error",
      };
    case "revoke_failed":
      return {
        title: `Revoke of ${KIND_LABEL[entry.token]} failed: ${entry.error}`,
        detail: `auth.revoke on ${entry.masked} answered ${entry.error}${by}`,
        tone: "error",
      };
    case "exchanged":
      return {
        title: `Exchanged ${KIND_LABEL[entry.token]}`,
        detail: `${entry.from} → ${entry.to} with a refresh token (oauth.v2.exchange). The original no longer works: never revoke it${
          entry.dropped?.length ? `. No longer kept: ${entry.dropped.join(", ")}, dead with the authorization that needed reinstalling` : ""
        }${by}`,
        tone: "ok",
      };
    case "exchange_failed":
      return {
        title: `Exchange of ${KIND_LABEL[entry.token]} failed: ${entry.error}`,
        detail: `oauth.v2.exchange of ${entry.masked} answered ${entry.error}.${EXCHANGE_ADVICE[entry.error] ?? ""}${by}`,
        tone: "warn",
      };
    case "expired":
      return {
        title: `${KIND_LABEL[entry.token][0]!.toUpperCase()}${KIND_LABEL[entry.token].slice(1)} expired`,
        detail: `${entry.masked} expired: noticed ${entry.noticed === "clock" ? "by the console's clock" : "when the platform answered token_expired"}${by}`,
        tone: "warn",
      };
    case "uninstalled":
      return {
        title: "Uninstalled",
        detail: `apps.uninstall revoked every token${entry.tokens.length > 0 ? `: ${entry.tokens.join(", ")}` : ""}${by}`,
        tone: "error",
      };
    case "uninstall_failed":
      return { title: `Uninstall failed: ${entry.error}`, detail: `apps.uninstall answered ${entry.error}${by}`, tone: "error" };
    case "upstream_replaced":
      return {
        title: "The emulator was reset or replaced",
        detail: `It was installed on emulator instance ${entry.was}; the emulator answering now is ${entry.now}, which never issued its tokens. Reinstall the app${by}`,
        tone: "error",
      };
  }
}
