import type { Metadata } from "next";
import { Suspense } from "react";
import { Explorer } from "@/components/explorer/explorer";

export const metadata: Metadata = { title: "API explorer" };

// The explorer reads its method and parameters from the URL on the client (useSearchParams).
export default function ExplorerPage() {
  return (
    <Suspense fallback={<p className="text-sm text-slate-500">Loading the explorer…</p>}>
      <Explorer />
    </Suspense>
  );
}
