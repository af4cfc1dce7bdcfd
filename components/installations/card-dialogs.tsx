"use client";

import type { ReactNode } from "react";
import { PlatformText } from "@/components/platform-text";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { InstallationView } from "@/lib/installations/universal/view";
import type { CardDialog } from "./card-state";
import { ExchangeDialog } from "./exchange-dialog";
import { KIND_LABEL, type HeldToken } from "./held-tokens";

function Masked({ children }: { children: ReactNode }) {
  return <code className="rounded bg-slate-100 px-1 font-mono text-xs text-slate-800">{children}</code>;
}

/** What an uninstall, or a revoke that takes the authorization with it, kills: every token and the webhook. */
function everythingThatDies(installation: InstallationView, held: HeldToken[]): ReactNode[] {
  return [
    ...held.map(({ kind, token }) => (
      <>
        The {KIND_LABEL[kind]} <Masked>{token.masked}</Masked>
        {token.maskedRefreshToken && (
          <>
            {" "}
            and its refresh token <Masked>{token.maskedRefreshToken}</Masked>
          </>
        )}
      </>
    )),
    ...(installation.incomingWebhook
      ? [
          <>
            The incoming webhook to <PlatformText>{installation.incomingWebhook.channel}</PlatformText> (
            <Masked>{installation.incomingWebhook.maskedUrl}</Masked>)
          </>,
        ]
      : []),
  ];
}

function tokensPhrase(held: HeldToken[]): string {
  const kinds = held.map((h) => h.kind);
  if (kinds.length === 2) return "the bot and user tokens stop";
  return `the ${kinds[0] ?? "bot"} token stops`;
}

/** What a destructive action asks before it runs: what it is, exactly what dies, and the button that does it. */
interface Confirmation {
  title: string;
  /** The consequence, in one sentence: what stops working and what it takes to get it back. */
  lead: ReactNode;
  /** What dies, one item each (masked tokens, the webhook, the timeline). */
  dies: ReactNode[];
  confirmLabel: string;
}

function confirmationOf(dialog: Exclude<CardDialog, { kind: "exchange" }>, installation: InstallationView, held: HeldToken[], alive: boolean): Confirmation {
  const workspace = installation.team.name || installation.team.id;
  switch (dialog.kind) {
    case "revoke_token": {
      const label = KIND_LABEL[dialog.token];
      return {
        title: `Revoke the long-lived ${label}?`,
        lead: `The app has token rotation, so auth.revoke revokes this ${label} alone: the installation stays. A long-lived token has no refresh token, so only a reinstall gives a new one; exchange it instead to keep it working with a refresh token.`,
        dies: held
          .filter((h) => h.kind === dialog.token)
          .map(({ token }) => (
            <>
              The {label} <Masked>{token.masked}</Masked>
            </>
          )),
        confirmLabel: `Revoke the ${label}`,
      };
    }
    case "revoke_installation": {
      const label = KIND_LABEL[dialog.token];
      return {
        title: `Revoke the long-lived ${label}?`,
        lead: `Revoking this long-lived ${label} revokes the whole installation: ${tokensPhrase(held)} working and the app must be reinstalled in ${workspace}. (An app without token rotation has no single-token revoke.)`,
        dies: everythingThatDies(installation, held),
        confirmLabel: `Revoke the ${label} and the installation`,
      };
    }
    case "uninstall":
      return {
        title: `Uninstall ${installation.app.name ?? installation.app.id ?? "the app"} from ${workspace}?`,
        lead: "apps.uninstall revokes every token of this installation at once: the app must be reinstalled to work in this workspace again. Its record and timeline stay here until you forget it.",
        dies: everythingThatDies(installation, held),
        confirmLabel: "Uninstall",
      };
    case "forget":
      return {
        title: `Forget ${installation.name} on this console?`,
        lead: alive
          ? "Nothing is revoked: its tokens keep working on the platform, but this console deletes its only copy of them, so it can no longer use, refresh or revoke them. Uninstall first if they must stop working."
          : "Its record, tokens and timeline are removed from the console's store, for everyone who uses it. Nothing changes on the platform.",
        dies: [
          ...(alive
            ? held.map(({ kind, token }) => (
                <>
                  This console&apos;s copy of the {KIND_LABEL[kind]} <Masked>{token.masked}</Masked>
                </>
              ))
            : []),
          <>The timeline of this installation ({installation.timeline.length} entries)</>,
        ],
        confirmLabel: "Forget",
      };
  }
}

/**
 * The card's dialogs: the confirmation of a destructive action, saying exactly what dies, and the
 * exchange's. Each is written from the installation as it is while the dialog shows.
 */
export function CardDialogs({
  dialog,
  installation,
  held,
  alive,
  busy,
  onConfirm,
  onClose,
}: {
  dialog: CardDialog | null;
  installation: InstallationView;
  held: HeldToken[];
  /** The installation is active (its tokens still work on the platform). */
  alive: boolean;
  busy: boolean;
  onConfirm: (dialog: CardDialog) => void;
  onClose: () => void;
}) {
  const confirm = dialog && dialog.kind !== "exchange" ? dialog : null;
  const confirmation = confirm ? confirmationOf(confirm, installation, held, alive) : null;
  const exchanging = dialog?.kind === "exchange" ? dialog.token : null;
  return (
    <>
      <ConfirmDialog
        open={confirmation !== null}
        title={confirmation?.title ?? ""}
        dies={confirmation?.dies ?? []}
        confirmLabel={confirmation?.confirmLabel ?? ""}
        busy={busy}
        onConfirm={() => confirm && onConfirm(confirm)}
        onClose={onClose}
      >
        {confirmation?.lead}
      </ConfirmDialog>
      <ExchangeDialog
        open={exchanging !== null}
        tokenLabel={exchanging === "user" ? "the user token" : "the bot token"}
        busy={busy}
        onClose={onClose}
        onConfirm={() => dialog && onConfirm(dialog)}
      />
    </>
  );
}
