"use client";

import { useId } from "react";
import { useClientNow } from "@/components/use-now";
import { installationPhase, type InstallationView } from "@/lib/installations/universal/view";
import { installationTransitions } from "@/lib/installations/universal/lifecycle";
import type { RefresherView } from "@/lib/installations/universal/refresh-schedule";
import { CardDialogs } from "./card-dialogs";
import { CardHeader } from "./card-header";
import { CardTokens } from "./card-tokens";
import { heldTokens, holdsLongLived } from "./held-tokens";
import { LifecycleDiagram } from "./lifecycle-diagram";
import { ReinstallBanner } from "./reinstall-banner";
import { TimelineList } from "./timeline-list";
import { useCardActions } from "./use-card-actions";
import { useKnownRotation } from "./use-known-rotation";

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
  const actions = useCardActions(installation, skewMs, onForgotten);
  const titleId = useId();
  const now = useClientNow(1000) + skewMs;
  const phase = installationPhase(installation);
  const name = installation.name;
  const rotation = useKnownRotation(installation, holdsLongLived(installation, phase));
  const held = heldTokens(installation, { phase, now, rotation, canManage, viewerId });

  return (
    <article
      aria-labelledby={titleId}
      data-installation={installation.id}
      className={`overflow-hidden rounded-xl border bg-white shadow-sm ${highlighted ? "border-emerald-500 ring-2 ring-emerald-100" : "border-slate-200"}`}
    >
      <CardHeader
        installation={installation}
        phase={phase}
        titleId={titleId}
        canManage={canManage}
        busy={actions.busy}
        onUninstall={() => actions.open({ kind: "uninstall" })}
        onForget={() => actions.open({ kind: "forget" })}
      />

      {phase !== "active" && <ReinstallBanner installation={installation} phase={phase} />}

      {/* Tokens, then the diagram beside them (below them on a narrow screen), then the timeline under the tokens. */}
      <div className="grid lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-w-0 divide-y divide-slate-100 lg:col-start-1 lg:row-start-1">
          <CardTokens
            installation={installation}
            phase={phase}
            held={held}
            rotation={rotation}
            outcomes={actions.outcomes}
            skewMs={skewMs}
            now={now}
            refreshWindowS={refreshWindowS}
            refresher={refresher}
            viewerId={viewerId}
            busy={actions.busy}
            onTest={actions.test}
            onTransition={actions.takeTransition}
          />
        </div>
        <section
          aria-label={`Lifecycle of ${name}`}
          className="min-w-0 border-t border-slate-100 px-5 py-4 lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:border-l lg:border-t-0"
        >
          <h3 className="mb-2 text-sm font-semibold text-slate-900">Token lifecycle</h3>
          <LifecycleDiagram name={name} tokens={held.map((h) => h.diagram)} phase={phase} installationWide={installationTransitions(phase)} />
        </section>
        <div className="min-w-0 border-t border-slate-100 px-5 py-4 lg:col-start-1 lg:row-start-2">
          <TimelineList
            installationId={installation.id}
            entries={installation.timeline}
            more={installation.timelineMore ?? false}
            unsaved={actions.unsaved}
            name={name}
          />
        </div>
      </div>

      <CardDialogs
        dialog={actions.dialog}
        installation={installation}
        held={held}
        alive={phase === "active"}
        busy={actions.busy}
        onConfirm={actions.confirm}
        onClose={actions.close}
      />
    </article>
  );
}
