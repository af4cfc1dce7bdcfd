import { THEME_SCRIPT } from "@/lib/theme";

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** The console's dark colours (app/globals.css), for the system setting or the theme switch's choice. */
const DARK =
  "color-scheme:dark;--bg:#020617;--card:#0f172a;--ink:#f1f5f9;--muted:#cbd5e1;--line:#334155;--code-bg:#450a0a;--code-ink:#fecaca;--code-line:#7f1d1d;--ok-bg:#022c22;--ok-ink:#a7f3d0;--ok-line:#065f46;--accent:#a7f3d0;--accent-ink:#0f172a";
const DARK_SELECTORS = `:root[data-theme=dark]{${DARK}}@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${DARK}}}`;

/**
 * A page of the install flow that stands alone, without the console around it (no navigation, nothing of the
 * dashboard): people outside the team reach these from an app's "Add to workspace" button. `body` is HTML the
 * caller built with escapeHtml around anything it did not write itself.
 */
export function standalonePage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Switchboard</title>
<script>${THEME_SCRIPT}</script>
<style>
:root{color-scheme:light;--bg:#f8fafc;--card:#fff;--ink:#0f172a;--muted:#475569;--line:#e2e8f0;--code-bg:#fef2f2;--code-ink:#b91c1c;--code-line:#fecaca;--ok-bg:#ecfdf5;--ok-ink:#065f46;--ok-line:#a7f3d0;--accent:#047857;--accent-ink:#fff}
${DARK_SELECTORS}
body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--ink)}
main{max-width:36rem;margin:4rem auto;padding:2rem;background:var(--card);border:1px solid var(--line);border-radius:.75rem;box-shadow:0 1px 2px rgba(0,0,0,.05)}
.code{display:inline-block;font:12px ui-monospace,monospace;background:var(--code-bg);color:var(--code-ink);border:1px solid var(--code-line);border-radius:.375rem;padding:.125rem .5rem}
.ok{display:inline-block;font:12px ui-monospace,monospace;background:var(--ok-bg);color:var(--ok-ink);border:1px solid var(--ok-line);border-radius:.375rem;padding:.125rem .5rem}
h1{font-size:1.25rem;margin:.75rem 0 .5rem;overflow-wrap:anywhere}p{color:var(--muted);line-height:1.5;overflow-wrap:anywhere}strong{color:var(--ink)}
p.note{font-size:.875rem;border-top:1px solid var(--line);margin-top:1.5rem;padding-top:1rem}
.app{display:flex;align-items:center;gap:.75rem}
.icon{width:56px;height:56px;border-radius:.75rem;flex:none;object-fit:cover}
.initials{display:inline-flex;align-items:center;justify-content:center;background:var(--accent);color:var(--accent-ink);font-weight:700;font-size:1.25rem}
.actions{display:flex;flex-wrap:wrap;align-items:center;gap:.75rem 1.25rem;margin-top:1.25rem}
a.button{display:inline-block;background:var(--accent);color:var(--accent-ink);text-decoration:none;padding:.5rem 1rem;border-radius:.5rem;font-weight:600}
a.secondary{color:var(--ink);text-underline-offset:2px}
a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
@media (max-width:40rem){main{margin:1rem;padding:1.25rem}}
</style></head>
<body><main>
${body}
</main></body></html>`;
}
