"use client";

import { BUTTON } from "@/components/ui/primitives";
import { reinstallHref } from "@/lib/installations/universal/install-href";
import { reinstallReason, type InstallationPhase } from "@/lib/installations/universal/lifecycle";
import type { InstallationView } from "@/lib/installations/universal/view";

/** Why an installation that is no longer active cannot be used, and the way back: Reinstall. */
export function ReinstallBanner({ installation, phase }: { installation: InstallationView; phase: Exclude<InstallationPhase, "active"> }) {
  return (
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
  );
}
