import { currentViewer } from "@/lib/access/viewer";
import type { Metadata } from "next";
import { EmulatorRecords } from "@/components/events/emulator-records";
import { EventInspector, type MentionTarget } from "@/components/events/event-inspector";
import { InstallationScopes } from "@/components/scopes-panel";
import { getConfig } from "@/lib/config";
import { eventAppNames } from "@/lib/events/app-names";
import { getSessionInstallationViews } from "@/lib/installations/actions/list-installations";
import { upstreamEmulator } from "@/lib/upstream-emulator";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Events" };

export default async function EventsPage() {
  const { appOrigin, redisUrl, eventSigners } = getConfig();
  const installations = await getSessionInstallationViews({ viewer: await currentViewer() });
  // The emulator's own records and "mention the app": the embedded one's, or a standalone one's reached through PLATFORM_BASE_URL.
  const emulator = (await upstreamEmulator()).kind !== "platform";
  const targets: MentionTarget[] = installations.map((i) => ({
    installationId: i.id,
    label: i.name,
    canReceive: i.bot?.scopes.includes("app_mentions:read") ?? false,
  }));
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-xl font-semibold tracking-tight">Events API</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Events the platform delivers to this console, live. Each request&apos;s signature is checked with the app&apos;s signing secret before it is shown.{" "}
          {redisUrl
            ? "Server instances share what they receive through Redis, so this feed shows the events that reached any of them."
            : "This feed lives in the server process: with several instances, set REDIS_URL so that each shows the events all of them received."}
        </p>
      </header>
      <EventInspector requestUrl={`${appOrigin}/api/events`} emulator={emulator} targets={targets} appNames={eventAppNames(installations, eventSigners)} />
      {emulator && <EmulatorRecords />}
      <InstallationScopes installations={installations} focus={["app_mentions:read"]} />
    </div>
  );
}
