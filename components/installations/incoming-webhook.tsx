"use client";

import { PlatformText } from "@/components/platform-text";
import type { InstallationView } from "@/lib/installations/universal/view";

/** The incoming webhook the install created: its channel and its URL, masked. */
export function IncomingWebhook({ webhook }: { webhook: NonNullable<InstallationView["incomingWebhook"]> }) {
  return (
    <div className="flex flex-wrap items-center gap-2 px-5 py-3 text-xs text-slate-700">
      <span className="font-medium text-slate-800">Incoming webhook</span>
      <PlatformText>{webhook.channel}</PlatformText>
      <code className="font-mono text-slate-600">{webhook.maskedUrl}</code>
    </div>
  );
}
