import Link from "next/link";

const LINKS = [
  { href: "/", label: "Installations" },
  { href: "/explorer", label: "API explorer" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/events", label: "Events" },
  { href: "/settings", label: "App settings" },
] as const;

export function SiteNav() {
  return (
    <header className="border-b border-slate-800 bg-slate-900 text-slate-100">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
          <span aria-hidden className="grid h-6 w-6 place-items-center rounded bg-emerald-500 text-xs font-bold text-slate-900">
            S
          </span>
          Switchboard
        </Link>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {LINKS.map((link) => (
            <li key={link.href}>
              <Link href={link.href} className="text-slate-300 hover:text-white">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
