import Link from "next/link";
import { InstallationsConsole } from "@/components/installations/installations-console";
import { signedInViewer } from "@/lib/access/viewer";
import { getConfig } from "@/lib/config";

export const dynamic = "force-dynamic";

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { upstream, exposed } = getConfig();
  const installed = (await searchParams).installed;
  const emulator = upstream.kind === "emulator";
  // With sign-in on, the emulator's admin surface answers admins only (lib/access/emulator-admin-gate.ts): no link a member would follow to a refusal.
  const admin = (await signedInViewer())?.admin ?? false;
  return (
    <div className="space-y-6">
      <section className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white px-5 py-3 shadow-sm">
        <p className="text-sm text-slate-600">
          Upstream: {emulator ? <strong>the embedded emulator</strong> : <strong>the configured platform</strong>} at{" "}
          <code className="rounded bg-slate-100 px-1 font-mono text-xs">{upstream.baseUrl}</code>
        </p>
        {emulator && (
          <ul className="flex gap-4 text-sm">
            <li>
              <Link className="text-emerald-700 underline" href="/emulator">
                Emulator
              </Link>
            </li>
            {/* No link to /emulator/admin/apps, which answers every app's secrets. The state (tokens masked) is
                for a browser only while the console is this machine's alone: exposed, the admin surface
                answers its token only; with sign-in, an admin only. */}
            {!exposed && admin && (
              <li>
                {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- JSON from the emulator's route handler, not a page */}
                <a className="text-emerald-700 underline" href="/emulator/admin/state">
                  State
                </a>
              </li>
            )}
          </ul>
        )}
      </section>
      <InstallationsConsole emulator={emulator} installedId={typeof installed === "string" ? installed : null} />
    </div>
  );
}
