import type { Metadata } from "next";
import { Suspense } from "react";
import { HistoryPage } from "@/components/history/history-page";

export const metadata: Metadata = { title: "Request history" };

// The page reads its saved request from the URL on the client (useSearchParams).
export default function ExplorerHistoryPage() {
  return (
    <Suspense fallback={<p className="text-sm text-slate-500">Loading the history…</p>}>
      <HistoryPage />
    </Suspense>
  );
}
