"use client";

import { Badge, BUTTON } from "@/components/ui/primitives";
import { LocalTime } from "@/components/local-time";
import type { AppSettingsView } from "@/lib/app-config/universal/types";
import type { RunAction } from "@/lib/swr/use-app-config";
import { AdminOnlyNote } from "./admin-only-note";

/**
 * Whether the platform sends the app its events: it stops when fewer than 5% of an hour's deliveries were
 * answered 2xx, and the app's settings turn delivery back on. Shown with why and since when; an admin gets
 * the button (the emulator's admin surface); against the real platform, where its settings page does it.
 */
export function EventDelivery({ settings, busy, onAction, mayChange }: { settings: AppSettingsView; busy: boolean; onAction: RunAction; mayChange: boolean }) {
  const { disabled, canEnable } = settings.events;
  if (disabled === undefined) {
    return (
      <p className="text-xs text-slate-500">
        The App Manifest API does not report it. When the platform disables this app&apos;s events (fewer than 5% of its deliveries answered in an hour), turn
        them on again on the app&apos;s Event Subscriptions page (api.slack.com/apps).
      </p>
    );
  }
  if (disabled === null) return <Badge tone="ok">delivering</Badge>;
  return (
    <section aria-label="Event delivery disabled" className="space-y-2 rounded-md border border-rose-300 bg-rose-50 p-3 text-sm text-rose-900">
      <p className="flex flex-wrap items-center gap-2">
        <Badge tone="error">disabled</Badge>
        <span>
          since <LocalTime at={Date.parse(disabled.at)} date="always" />
        </span>
      </p>
      <p>
        {disabled.reason === "delivery_failures" ? (
          <>
            The app answered {disabled.delivered} of its last {disabled.attempted} deliveries with a 2xx in the hour, fewer than 5%: the platform sends it no
            event until delivery is enabled again, and each one meanwhile is recorded as not sent.
          </>
        ) : (
          <>The platform stopped sending this app events ({disabled.reason}).</>
        )}
      </p>
      {!canEnable ? null : mayChange ? (
        <button type="button" className={BUTTON.primary} disabled={busy} onClick={() => void onAction({ kind: "enable-events", appId: settings.appId })}>
          Re-enable event delivery
        </button>
      ) : (
        <AdminOnlyNote>Only an admin enables event delivery again: it is the app&apos;s for every workspace it is installed in.</AdminOnlyNote>
      )}
    </section>
  );
}
