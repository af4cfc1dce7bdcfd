"use client";

import { Badge, BUTTON } from "@/components/ui/primitives";
import { PlatformText } from "@/components/platform-text";
import type { InstallationPhase } from "@/lib/installations/universal/lifecycle";
import type { InstallationView } from "@/lib/installations/universal/view";

/**
 * The card's heading: the installation's name and phase, the ids it is known by, and the installation-wide
 * actions for who may take them (or, for a member who may not, who can).
 */
export function CardHeader({
  installation,
  phase,
  titleId,
  canManage,
  busy,
  onUninstall,
  onForget,
}: {
  installation: InstallationView;
  phase: InstallationPhase;
  titleId: string;
  canManage: boolean;
  busy: boolean;
  onUninstall: () => void;
  onForget: () => void;
}) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 bg-slate-50 px-5 py-4">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id={titleId} className="min-w-0 break-words text-base font-semibold text-slate-900">
            <PlatformText>{installation.name}</PlatformText>
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
            <button type="button" className={BUTTON.danger} disabled={busy} onClick={onUninstall}>
              Uninstall…
            </button>
          )}
          <button type="button" className={BUTTON.secondary} disabled={busy} onClick={onForget}>
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
  );
}
