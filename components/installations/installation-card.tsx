"use client";

import { useId, useState, type ReactNode } from "react";
import { Badge, BUTTON } from "@/components/ui/primitives";
import { PlatformText } from "@/components/platform-text";
import { useClientNow } from "@/components/use-now";
import { installationPhase, tokenFactsOf, type InstallationView, type TokenView } from "@/lib/installations/universal/view";
import { describeTimelineEntry } from "@/lib/installations/universal/timeline-text";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { cappedExpiry } from "@/lib/installations/universal/token-lifetime";
import {
  consoleTransitionsFor,
  holdsRefreshToken,
  installationTransitions,
  reinstallReason,
  tokenStateAt,
  type KnownRotation,
  type LifecycleTransition,
} from "@/lib/installations/universal/lifecycle";
import { useAppSettings } from "@/lib/swr/use-app-config";
import { useRevalidateSession, useSessionAction, type SessionAction } from "@/lib/swr/use-session";
import type { InstallationActionAnswer } from "@/lib/installations/universal/view";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ActionOutcome } from "./action-outcome";
import { ExchangeDialog } from "./exchange-dialog";
import { reinstallHref } from "@/lib/installations/universal/install-href";
import { LifecycleDiagram, type DiagramToken } from "./lifecycle-diagram";
import { TimelineList, type UnsavedEntry } from "./timeline-list";
import { TokenRow } from "./token-row";
import { plannedRefreshAt, type RefresherView } from "@/lib/installations/universal/refresh-schedule";

const KIND_LABEL: Record<TokenKind, string> = { bot: "bot token", user: "user token" };
const ACTION_LABEL: Record<SessionAction["kind"], string> = {
  test: "Test",
  refresh: "Refresh",
  revoke: "Revoke",
  exchange: "Exchange",
  uninstall: "Uninstall",
  forget: "Forget",
};

/** The token actions whose result shows beside the token's buttons. */
type TokenActionKind = "test" | "refresh" | "revoke" | "exchange";
const OUTCOME_ACTION: Record<TokenActionKind, ActionOutcome["action"]> = { test: "Test", refresh: "Refresh", revoke: "Revoke", exchange: "Exchange" };

/**
 * What an action's answer says, for beside its button: Test's auth.test answer (team, user, url) and
 * otherwise the words of the timeline entry the server recorded for it, or the console's message.
 */
function outcomeOf(action: TokenActionKind, kind: TokenKind, answer: InstallationActionAnswer | null, error: Error | null, at: number): ActionOutcome {
  const entry = answer?.installation?.timeline[0];
  const described = entry && "token" in entry && entry.token === kind ? describeTimelineEntry(entry) : null;
  const platformError = (answer?.platform as { error?: unknown } | null | undefined)?.error;
  if (error) {
    const code = (error as Error & { code?: string }).code;
    return { action: OUTCOME_ACTION[action], tone: "error", result: code && code !== "http_error" ? code : "failed", detail: error.message, at };
  }
  if (action === "test" && answer?.ok) {
    return {
      action: "Test",
      tone: "ok",
      result: "ok",
      detail: answer.refreshed ? "The token was refreshed first (it was about to expire)." : "",
      identity: answer.identity ?? null,
      at,
    };
  }
  if (answer && !answer.ok) {
    return {
      action: OUTCOME_ACTION[action],
      tone: "error",
      result: typeof platformError === "string" ? platformError : "error",
      detail: described?.detail ?? "",
      at,
    };
  }
  return { action: OUTCOME_ACTION[action], tone: described?.tone === "warn" ? "warn" : "ok", result: "ok", detail: described?.detail ?? "", at };
}

/**
 * The app's token rotation setting, where the console can read it (the embedded emulator, or the platform
 * with a configuration token: the app settings' own route), for an installation holding a long-lived token,
 * the only kind whose buttons depend on it. A rotating token proves it on (rotation cannot be turned off).
 * "loading" until the answer comes; null when it cannot be known.
 */
function useKnownRotation(installation: InstallationView, holdsLongLived: boolean): KnownRotation | "loading" {
  const proved = Boolean(installation.bot?.rotating || installation.user?.rotating);
  const appId = holdsLongLived && !proved ? installation.app.id : null;
  const { data, error } = useAppSettings(appId);
  if (proved) return true;
  if (!appId) return null;
  if (data) return data.tokenRotationEnabled;
  return error ? null : "loading";
}

interface HeldToken {
  kind: TokenKind;
  token: TokenView;
  owner: string | null;
  diagram: DiagramToken;
}

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
interface ConfirmRequest {
  title: string;
  /** The consequence, in one sentence: what stops working and what it takes to get it back. */
  lead: ReactNode;
  /** What dies, one item each (masked tokens, the webhook, the timeline). */
  dies: ReactNode[];
  confirmLabel: string;
  onConfirm: () => void;
}

/** Transitions for an admin and the member who installed (lib/access): a member who did not sees them in the diagram only. */
const MANAGERS_ONLY = new Set<string>(["revoke_with_rotation", "revoke_without_rotation", "exchange", "turn_on_rotation", "uninstall"]);
/** A member may revoke the rotating user token that is their own (user tokens belong to people); a long-lived one's revoke ends the installation. */
const OWN_TOKEN_REVOKES = new Set<string>(["revoke_with_rotation"]);

/**
 * One installation, named by app and workspace: its tokens with the state each is in and the buttons of
 * the transitions the console can take from there, the lifecycle diagram beside them, and the timeline of
 * everything that happened, where every action's result goes (nothing replaces the previous one).
 * Destructive actions confirm first and say exactly what dies.
 */
export function InstallationCard({
  installation,
  skewMs,
  refreshWindowS,
  highlighted,
  canManage,
  viewerId,
  refresher,
  onForgotten,
}: {
  installation: InstallationView;
  skewMs: number;
  refreshWindowS: number;
  highlighted: boolean;
  /** This person may revoke, uninstall, forget and exchange (an admin, or the member who installed it: lib/access). */
  canManage: boolean;
  /** The signed-in person's user id (their own user token is theirs to revoke); null without sign-in. */
  viewerId: string | null;
  /** The background refresher's settings: each rotating token's planned refresh follows from them. */
  refresher: RefresherView | null;
  onForgotten: (name: string) => void;
}) {
  const { trigger, isMutating } = useSessionAction();
  const revalidate = useRevalidateSession();
  const [unsaved, setUnsaved] = useState<UnsavedEntry[]>([]);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [exchanging, setExchanging] = useState<TokenKind | null>(null);
  const [outcomes, setOutcomes] = useState<Partial<Record<TokenKind, ActionOutcome>>>({});
  const titleId = useId();
  const now = useClientNow(1000) + skewMs;
  const phase = installationPhase(installation);
  const name = installation.name;
  const workspace = installation.team.name || installation.team.id;
  const appLabel = installation.app.name ?? installation.app.id ?? "the app";

  const holdsLongLived =
    phase === "active" && (["bot", "user"] as const).some((kind) => installation[kind] && !installation[kind].rotating && !installation[kind].revoked);
  const rotation = useKnownRotation(installation, holdsLongLived);
  const held: HeldToken[] = (["bot", "user"] as const).flatMap((kind) => {
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
  const installationWide = installationTransitions(phase);

  /**
   * Runs an action. Its result reaches the timeline through the server (the answer carries the installation
   * with its new entry); a request that failed before the server could record anything shows as an entry
   * of this page only.
   */
  async function run(action: SessionAction, what: string) {
    const newest = installation.timeline[0]?.at ?? 0;
    const kind = "arg" in action && "token" in action.arg ? action.arg.token : null;
    const tokenAction = action.kind === "test" || action.kind === "refresh" || action.kind === "revoke" || action.kind === "exchange" ? action.kind : null;
    const show = (answer: InstallationActionAnswer | null, error: Error | null) => {
      if (kind && tokenAction) setOutcomes((previous) => ({ ...previous, [kind]: outcomeOf(tokenAction, kind, answer, error, Date.now() + skewMs) }));
    };
    if (kind) setOutcomes((previous) => ({ ...previous, [kind]: undefined }));
    try {
      const result = await trigger(action);
      show(result, null);
      if (action.kind === "forget" && result.ok !== false) onForgotten(name);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error("The request failed.");
      const fresh = await revalidate().catch(() => undefined);
      const after = fresh?.installations.find((i) => i.id === installation.id);
      const recorded = after && (after.timeline[0]?.at ?? 0) > newest ? after.timeline[0] : undefined;
      // The server's words for it when it recorded the failure (an exchange refused, with its advice).
      const advice = recorded && "token" in recorded && recorded.token === kind ? describeTimelineEntry(recorded).detail : null;
      show(null, advice ? Object.assign(new Error(advice), { code: (failure as Error & { code?: string }).code }) : failure);
      if (recorded) return;
      setUnsaved((previous) =>
        [{ at: Date.now() + skewMs, title: `${ACTION_LABEL[action.kind]} ${what}: failed`, detail: failure.message }, ...previous].slice(0, 5),
      );
    }
  }

  function takeTransition(kind: TokenKind, transition: LifecycleTransition) {
    const target = { installation: installation.id, token: kind };
    switch (transition.id) {
      case "refresh":
        return void run({ kind: "refresh", arg: target }, KIND_LABEL[kind]);
      case "revoke_with_rotation":
        if (installation[kind]?.rotating) {
          // Only this token dies, and its refresh token issues a new one: nothing to confirm.
          return void run({ kind: "revoke", arg: target }, KIND_LABEL[kind]);
        }
        return setConfirm({
          title: `Revoke the long-lived ${KIND_LABEL[kind]}?`,
          lead: `The app has token rotation, so auth.revoke revokes this ${KIND_LABEL[kind]} alone: the installation stays. A long-lived token has no refresh token, so only a reinstall gives a new one; exchange it instead to keep it working with a refresh token.`,
          dies: held
            .filter((h) => h.kind === kind)
            .map(({ token }) => (
              <>
                The {KIND_LABEL[kind]} <Masked>{token.masked}</Masked>
              </>
            )),
          confirmLabel: `Revoke the ${KIND_LABEL[kind]}`,
          onConfirm: () => void run({ kind: "revoke", arg: target }, KIND_LABEL[kind]),
        });
      case "revoke_without_rotation":
        return setConfirm({
          title: `Revoke the long-lived ${KIND_LABEL[kind]}?`,
          lead: `Revoking this long-lived ${KIND_LABEL[kind]} revokes the whole installation: ${tokensPhrase(held)} working and the app must be reinstalled in ${workspace}. (An app without token rotation has no single-token revoke.)`,
          dies: everythingThatDies(installation, held),
          confirmLabel: `Revoke the ${KIND_LABEL[kind]} and the installation`,
          onConfirm: () => void run({ kind: "revoke", arg: target }, KIND_LABEL[kind]),
        });
      case "exchange":
        return setExchanging(kind);
      default:
        return undefined;
    }
  }

  function confirmUninstall() {
    setConfirm({
      title: `Uninstall ${appLabel} from ${workspace}?`,
      lead: "apps.uninstall revokes every token of this installation at once: the app must be reinstalled to work in this workspace again. Its record and timeline stay here until you forget it.",
      dies: everythingThatDies(installation, held),
      confirmLabel: "Uninstall",
      onConfirm: () => void run({ kind: "uninstall", arg: { installation: installation.id } }, "the installation"),
    });
  }

  function confirmForget() {
    const alive = phase === "active";
    setConfirm({
      title: `Forget ${name} on this console?`,
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
      onConfirm: () => void run({ kind: "forget", arg: { installation: installation.id } }, "the installation"),
    });
  }

  const settingsHref = installation.app.id ? `/settings?app=${encodeURIComponent(installation.app.id)}` : null;

  return (
    <article
      aria-labelledby={titleId}
      data-installation={installation.id}
      className={`overflow-hidden rounded-xl border bg-white shadow-sm ${highlighted ? "border-emerald-500 ring-2 ring-emerald-100" : "border-slate-200"}`}
    >
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 bg-slate-50 px-5 py-4">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={titleId} className="min-w-0 break-words text-base font-semibold text-slate-900">
              <PlatformText>{name}</PlatformText>
            </h2>
            {phase === "active" && <Badge tone="ok">active</Badge>}
            {phase === "needs_reinstall" && <Badge tone="error">needs reinstall</Badge>}
            {phase === "uninstalled" && <Badge tone="error">uninstalled</Badge>}
          </div>
          <p className="break-words font-mono text-xs text-slate-600">
            team {installation.team.id}
            {installation.enterprise && ` · enterprise ${installation.enterprise.id}`}
            {installation.app.id && ` · app ${installation.app.id}`}
            {installation.botUserId && ` · bot user ${installation.botUserId}`}
          </p>
        </div>
        {canManage ? (
          <div className="flex flex-wrap items-center gap-1.5">
            {phase === "active" && (
              <button type="button" className={BUTTON.danger} disabled={isMutating} onClick={confirmUninstall}>
                Uninstall…
              </button>
            )}
            <button type="button" className={BUTTON.secondary} disabled={isMutating} onClick={confirmForget}>
              Forget…
            </button>
          </div>
        ) : (
          <p className="max-w-xs text-xs text-slate-600">
            You may test, refresh and call with it. Revoking, exchanging, uninstalling and forgetting are for an admin and for{" "}
            {installation.installedBy ? <code className="font-mono">{installation.installedBy}</code> : "the member"}, who installed it.
          </p>
        )}
      </header>

      {phase !== "active" && (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-3 border-b border-rose-100 bg-rose-50 px-5 py-3 text-sm text-rose-900">
          <p className="min-w-0">
            {phase === "uninstalled" ? "Uninstalled" : "Needs reinstalling"}: {reinstallReason(installation.problem, phase === "uninstalled")}.{" "}
            {phase === "uninstalled"
              ? "Reinstall to use the app in this workspace again, or forget it."
              : "Its tokens are dead: Refresh cannot renew them and there is nothing to exchange. Reinstall the app."}
          </p>
          <a href={reinstallHref(installation)} className={BUTTON.primary}>
            Reinstall
          </a>
        </div>
      )}

      {/* Tokens, then the diagram beside them (below them on a narrow screen), then the timeline under the tokens. */}
      <div className="grid lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-w-0 divide-y divide-slate-100 lg:col-start-1 lg:row-start-1">
          {held.map(({ kind, token, owner, diagram }) => (
            <TokenRow
              key={kind}
              kind={kind}
              token={token}
              owner={owner}
              state={diagram.state}
              holdsRefresh={diagram.holdsRefresh}
              transitions={diagram.transitions}
              settingsHref={settingsHref}
              rotation={rotation === "loading" ? null : rotation}
              outcome={outcomes[kind] ?? null}
              skewMs={skewMs}
              now={now}
              refreshWindowS={refreshWindowS}
              busy={isMutating}
              onTest={phase === "active" ? () => void run({ kind: "test", arg: { installation: installation.id, token: kind } }, KIND_LABEL[kind]) : null}
              onTransition={(transition) => takeTransition(kind, transition)}
              plannedRefreshAt={
                refresher?.enabled && token.rotating && token.expiresAt !== null && phase === "active"
                  ? plannedRefreshAt(
                      { installationId: installation.id, kind, userId: kind === "user" ? installation.userHolder : null },
                      token.expiresAt,
                      refresher.horizonS,
                      refresher.spreadS,
                    )
                  : null
              }
            />
          ))}
          {held.length === 0 && <p className="px-5 py-4 text-sm text-slate-600">No tokens: apps.uninstall revoked them. Reinstall to get new ones.</p>}
          <PeopleTokens installation={installation} viewerId={viewerId} now={now} />
          {installation.incomingWebhook && (
            <div className="flex flex-wrap items-center gap-2 px-5 py-3 text-xs text-slate-700">
              <span className="font-medium text-slate-800">Incoming webhook</span>
              <PlatformText>{installation.incomingWebhook.channel}</PlatformText>
              <code className="font-mono text-slate-600">{installation.incomingWebhook.maskedUrl}</code>
            </div>
          )}
        </div>
        <section
          aria-label={`Lifecycle of ${name}`}
          className="min-w-0 border-t border-slate-100 px-5 py-4 lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:border-l lg:border-t-0"
        >
          <h3 className="mb-2 text-sm font-semibold text-slate-900">Token lifecycle</h3>
          <LifecycleDiagram name={name} tokens={held.map((h) => h.diagram)} phase={phase} installationWide={installationWide} />
        </section>
        <div className="min-w-0 border-t border-slate-100 px-5 py-4 lg:col-start-1 lg:row-start-2">
          <TimelineList
            installationId={installation.id}
            entries={installation.timeline}
            more={installation.timelineMore ?? false}
            unsaved={unsaved}
            name={name}
          />
        </div>
      </div>

      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.title ?? ""}
        dies={confirm?.dies ?? []}
        confirmLabel={confirm?.confirmLabel ?? ""}
        busy={isMutating}
        onConfirm={() => {
          confirm?.onConfirm();
          setConfirm(null);
        }}
        onClose={() => setConfirm(null)}
      >
        {confirm?.lead}
      </ConfirmDialog>
      <ExchangeDialog
        open={exchanging !== null}
        tokenLabel={exchanging === "user" ? "the user token" : "the bot token"}
        busy={isMutating}
        onClose={() => setExchanging(null)}
        onConfirm={() => {
          const kind = exchanging ?? "bot";
          setExchanging(null);
          void run({ kind: "exchange", arg: { installation: installation.id, token: kind, confirm: true } }, KIND_LABEL[kind]);
        }}
      />
    </article>
  );
}

/**
 * Every person's user token in this installation (user tokens belong to people: each member who installed
 * with user scopes keeps their own), when there is more than the one the card's rows act with, or when this
 * person has none of their own: who holds one, masked, and where it stands.
 */
function PeopleTokens({ installation, viewerId, now }: { installation: InstallationView; viewerId: string | null; now: number }) {
  const tokens = installation.userTokens;
  const mine = installation.user !== null;
  if (tokens.length === 0 || (tokens.length === 1 && mine)) return null;
  return (
    <section aria-label="People's user tokens" className="px-5 py-3 text-xs text-slate-700">
      <h3 className="text-sm font-medium text-slate-900">User tokens of {tokens.length === 1 ? "one person" : `${tokens.length} people`}</h3>
      {!mine && (
        <p className="mt-1 text-slate-600">
          You have no user token here: each person who installs with user scopes gets their own, which acts as them. Install the app yourself (Reinstall) to get
          one.
        </p>
      )}
      <ul className="mt-2 grid gap-1">
        {tokens.map(({ userId, token }) => (
          <li key={userId ?? "nobody"} className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="font-mono text-slate-800">
              {userId ?? "(installed before tokens were per person)"}
              {userId !== null && userId === viewerId ? " (you)" : ""}
              {userId !== null && userId === installation.authedUserId ? " · installed last" : ""}
            </span>
            <code className="font-mono text-slate-600">{token.masked}</code>
            <span className="text-slate-600">{peopleTokenState(token, now)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function peopleTokenState(token: InstallationView["userTokens"][number]["token"], now: number): string {
  if (token.revoked) return "revoked";
  if (!token.rotating || token.expiresAt === null) return "long-lived";
  const left = cappedExpiry(token.expiresAt, now) - now;
  if (left <= 0) return "expired (refreshed at its next use)";
  const hours = Math.floor(left / 3_600_000);
  const minutes = Math.floor((left % 3_600_000) / 60_000);
  return `rotating, expires in ${hours > 0 ? `${hours} h ` : ""}${minutes} min`;
}
