import type { Metadata } from "next";
import { ApiKeysConsole } from "@/components/api-keys/api-keys-console";
import { getConfig } from "@/lib/config";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API keys" };

export default function ApiKeysPage() {
  const { appOrigin, tokenApi, refresher } = getConfig();
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-xl font-semibold tracking-tight">API keys</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Your app&apos;s own backend asks Switchboard for each workspace&apos;s token instead of refreshing it itself:{" "}
          <code className="rounded bg-slate-100 px-1 text-xs [overflow-wrap:anywhere]">
            GET {appOrigin}/api/v1/installations/&#123;team_id&#125;/token?kind=bot
          </code>{" "}
          with <code className="rounded bg-slate-100 px-1 text-xs [overflow-wrap:anywhere]">Authorization: Bearer sbk_…</code>. It answers a token valid for at
          least {Math.round(tokenApi.marginS / 60)} minutes, refreshed once for every backend that asks
          {refresher.enabled ? ", and the background refresher keeps every token alive meanwhile" : ""}. The route refuses browsers. See{" "}
          <a href="/docs/token-api" className="font-medium text-emerald-700 underline">
            docs/token-api.md
          </a>{" "}
          for the app side (a Bolt <code className="rounded bg-slate-100 px-1 text-xs">authorize</code> function).
        </p>
      </header>
      <ApiKeysConsole />
    </div>
  );
}
