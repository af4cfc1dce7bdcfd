/** Minimal HTML rendering for the emulator's pages: escaping, one shared layout with inline CSS, the error page. */

export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

const STYLE = `
:root { color-scheme: light; --ink:#1d1c1d; --muted:#616061; --line:#e2e2e2; --accent:#007a5a; --accent-ink:#fff;
  --danger:#b42318; --bg:#f6f5f4; --card:#fff; }
* { box-sizing: border-box; }
body { margin:0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--ink); background:var(--bg); }
header.bar { background:#3f0e40; color:#fff; padding:10px 24px; font-weight:600; letter-spacing:.2px; }
header.bar small { font-weight:400; opacity:.75; margin-left:8px; }
main { max-width: 640px; margin: 40px auto; padding: 0 16px; }
main.wide { max-width: 960px; }
.card { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:28px 32px; box-shadow:0 1px 3px rgba(0,0,0,.06); }
h1 { font-size:22px; margin:0 0 6px; }
h2 { font-size:15px; margin:22px 0 8px; }
p.lead { color:var(--muted); margin:0 0 18px; }
ul.scopes { margin:0; padding:0; list-style:none; border:1px solid var(--line); border-radius:8px; }
ul.scopes li { padding:8px 12px; border-top:1px solid var(--line); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size:13px; }
ul.scopes li:first-child { border-top:0; }
label { display:block; font-weight:600; margin:18px 0 6px; }
select { width:100%; padding:8px 10px; font:inherit; border:1px solid #bbb; border-radius:6px; background:#fff; }
.actions { display:flex; gap:12px; justify-content:flex-end; margin-top:28px; }
button, a.button { font:inherit; font-weight:600; padding:9px 18px; border-radius:6px; border:1px solid #bbb; background:#fff; color:var(--ink); cursor:pointer; text-decoration:none; display:inline-block; }
button.primary, a.button.primary { background:var(--accent); border-color:var(--accent); color:var(--accent-ink); }
button:focus-visible, a:focus-visible, select:focus-visible { outline:3px solid #1264a3; outline-offset:2px; }
.error h1 { color:var(--danger); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size:13px; background:#f1f1f1; padding:1px 5px; border-radius:4px; }
table { width:100%; border-collapse:collapse; font-size:14px; }
th, td { text-align:left; padding:8px 10px; border-top:1px solid var(--line); vertical-align:top; }
th { color:var(--muted); font-weight:600; border-top:0; }
.badge { display:inline-block; font-size:12px; padding:1px 8px; border-radius:999px; background:#e8f5e9; color:#1b5e20; }
.badge.off { background:#f1f1f1; color:var(--muted); }
.meta { color:var(--muted); font-size:13px; }
`;

// Inline, so a browser does not ask for /favicon.ico, which the emulator (standalone or mounted) does not serve.
const ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#3f0e40"/><text x="16" y="23" font-family="system-ui,sans-serif" font-size="20" font-weight="700" text-anchor="middle" fill="#fff">E</text></svg>',
)}`;

/** A complete HTML document; `body` must already be escaped. */
export function layout(title: string, body: string, options: { wide?: boolean } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${ICON}">
<style>${STYLE}</style>
</head>
<body>
<header class="bar">Platform emulator<small>Switchboard</small></header>
<main${options.wide ? ' class="wide"' : ""}>
${body}
</main>
</body>
</html>`;
}

/** The page a person sees instead of the one asked for (PageError): never a redirect. */
export function renderErrorPage(title: string, detail: string): string {
  return layout(title, `<div class="card error" role="alert"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></div>`);
}

export function htmlResponse(html: string, status = 200): Response {
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      // The consent page must not be framed by another site (clickjacking), as on the platform.
      "x-frame-options": "DENY",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
      "cache-control": "no-store",
    },
  });
}
