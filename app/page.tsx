import Link from "next/link";
import { getConfig } from "@/lib/config";

export const dynamic = "force-dynamic";

export default function HomePage() {
  const { upstream } = getConfig();
  return (
    <div className="space-y-6">
      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h1 className="text-xl font-semibold">Switchboard</h1>
        <p className="mt-1 text-sm text-slate-600">
          Upstream:{" "}
          {upstream.kind === "emulator" ? (
            <strong>the embedded emulator</strong>
          ) : (
            <strong>the configured platform</strong>
          )}{" "}
          at <code className="rounded bg-slate-100 px-1">{upstream.baseUrl}</code>
        </p>
        {upstream.kind === "emulator" && (
          <ul className="mt-3 flex gap-4 text-sm">
            <li><Link className="text-emerald-700 underline" href="/emulator">Emulator</Link></li>
            <li><a className="text-emerald-700 underline" href="/emulator/admin/apps">Apps</a></li>
            <li><a className="text-emerald-700 underline" href="/emulator/admin/state">State</a></li>
          </ul>
        )}
      </section>
    </div>
  );
}
