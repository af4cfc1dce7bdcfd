import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Metadata } from "next";

export const metadata: Metadata = { title: "The token API" };

/**
 * docs/token-api.md as the console serves it, so the API keys page can link to it with no network: the
 * repository's text as written (Markdown reads as text), read from the checkout the console runs from. A
 * standalone build carries the file (next.config.ts traces it for this page).
 */
export default async function TokenApiDocPage() {
  const text = await readFile(path.join(process.cwd(), "docs", "token-api.md"), "utf8");
  return (
    <article className="space-y-4">
      <p className="text-sm text-slate-600">
        <a href="/api-keys" className="font-medium text-emerald-700 underline">
          API keys
        </a>{" "}
        · docs/token-api.md
      </p>
      <pre className="whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-white p-4 font-mono text-[13px] leading-relaxed text-slate-800">
        {text}
      </pre>
    </article>
  );
}
