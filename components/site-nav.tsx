"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useMe } from "@/lib/swr/use-me";
import { SignedInPerson } from "./signed-in-person";
import { ThemeSwitch } from "./theme-switch";

const LINKS = [
  { href: "/", label: "Installations" },
  { href: "/explorer", label: "API explorer" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/events", label: "Events" },
  { href: "/workspace", label: "Workspace", adminOnly: true },
  { href: "/settings", label: "App settings" },
  { href: "/api-keys", label: "API keys", adminOnly: true },
] as const;

/**
 * The header. Its colours are written out rather than taken from the palette: the header stays dark in
 * both themes, and app/globals.css turns the palette around in dark mode.
 */
export function SiteNav() {
  const pathname = usePathname();
  // Links to pages only an admin can use wait until /api/me says this person is one.
  const admin = useMe().data?.admin ?? false;
  const links = LINKS.filter((link) => admin || !("adminOnly" in link));
  // The sign-in page is for someone not signed in: every link would lead back to it.
  const signingIn = pathname === "/signin";
  return (
    <header className="border-b border-[#1e293b] bg-[#0f172a] text-[#f1f5f9]">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
          <span aria-hidden className="grid h-6 w-6 place-items-center rounded bg-[#10b981] text-xs font-bold text-[#0f172a]">
            S
          </span>
          Switchboard
        </Link>
        {!signingIn && (
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {links.map((link) => {
              const current = link.href === "/" ? pathname === "/" : pathname === link.href || pathname.startsWith(`${link.href}/`);
              return (
                <li key={link.href}>
                  <Link
                    href={link.href}
                    aria-current={current ? "page" : undefined}
                    className={
                      current
                        ? "font-medium text-[#ffffff] underline decoration-[#34d399] decoration-2 underline-offset-[6px]"
                        : "text-[#cbd5e1] hover:text-[#ffffff]"
                    }
                  >
                    {link.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
        <div className="ml-auto flex items-center gap-4">
          {!signingIn && <SignedInPerson />}
          <ThemeSwitch />
        </div>
      </nav>
    </header>
  );
}
