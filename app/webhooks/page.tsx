import { currentViewer } from "@/lib/access/viewer";
import type { Metadata } from "next";
import { InstallationScopes } from "@/components/scopes-panel";
import { WebhooksConsole } from "@/components/webhooks/webhooks-console";
import { getConfig } from "@/lib/config";
import { getSessionInstallationViews } from "@/lib/installations/actions/list-installations";
import { upstreamEmulator } from "@/lib/upstream-emulator";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const { upstream, webhookHosts } = getConfig();
  const installations = await getSessionInstallationViews({ viewer: await currentViewer() });
  // The emulator's channels (to watch a message arrive): the embedded one's, or a standalone one's reached through PLATFORM_BASE_URL.
  const emulator = (await upstreamEmulator()).kind;
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-xl font-semibold tracking-tight">Incoming webhooks</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Post a message through an incoming webhook. Webhook URLs are secrets: they stay sealed in the server's store and only their host and last 4 characters
          are shown. The console posts for you, only to{" "}
          {webhookHosts.map((h, i) => (
            <span key={h}>
              {i > 0 && ", "}
              <code className="rounded bg-slate-100 px-1 text-xs">{h}</code>
            </span>
          ))}
          {emulator === "embedded" && (
            <>
              {" "}
              and the embedded emulator&apos;s <code className="rounded bg-slate-100 px-1 text-xs">/emulator/services/</code>
            </>
          )}
          {emulator === "standalone" && (
            <>
              {" "}
              and the standalone emulator&apos;s <code className="rounded bg-slate-100 px-1 text-xs">{upstream.baseUrl}/services/</code>
            </>
          )}
          .
        </p>
      </header>
      <WebhooksConsole emulator={emulator !== "platform"} />
      <InstallationScopes installations={installations} focus={["incoming-webhook"]} />
    </div>
  );
}
