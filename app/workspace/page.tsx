import type { Metadata } from "next";
import { WorkspaceConsole } from "@/components/workspace/workspace-console";
import { getConfig } from "@/lib/config";
import { upstreamEmulator } from "@/lib/upstream-emulator";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Workspace" };

export default async function WorkspacePage() {
  const { upstream } = getConfig();
  const emulator = (await upstreamEmulator()).kind !== "platform";
  return (
    <div className="space-y-4">
      <header>
        <h1 className="text-xl font-semibold tracking-tight">Workspace</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          {emulator
            ? "Be a member of the emulated workspace and click through your app: post, mention it, run its slash commands and shortcuts, click its buttons, fill its modals, open its Home. Everything goes to the app over HTTP or Socket Mode, as the platform sends it, and what the app does shows here live."
            : `The console talks to the real platform (${upstream.baseUrl}), whose workspaces are not the console's to act in: this page works with the embedded emulator, or a standalone one through PLATFORM_BASE_URL.`}
        </p>
      </header>
      {emulator && <WorkspaceConsole />}
    </div>
  );
}
