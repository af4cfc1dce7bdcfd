"use client";

import { useMe } from "@/lib/swr/use-me";

/**
 * Who is signed in (name and workspace), with Sign out, in the header's colours (components/site-nav.tsx).
 * Sign out is a form the browser posts, so it carries the console's Origin and works before any script runs.
 * With AUTH_MODE=none nobody signs in, and nothing shows.
 */
export function SignedInPerson() {
  const { data } = useMe();
  if (!data || data.authMode === "none") return null;
  const person = data.person;
  if (!person) {
    return (
      <a href="/signin" className="text-sm text-[#cbd5e1] hover:text-[#ffffff]">
        Sign in
      </a>
    );
  }
  const workspace = person.enterpriseName ? `${person.teamName} (${person.enterpriseName})` : person.teamName;
  return (
    <div className="flex items-center gap-3 text-sm" data-testid="signed-in-person">
      <p className="leading-tight">
        <span className="sr-only">Signed in as </span>
        <span className="font-medium text-[#ffffff]">{person.name}</span>
        <span className="text-[#cbd5e1]">
          <span aria-hidden> · </span>
          <span className="sr-only"> in </span>
          {workspace}
        </span>
      </p>
      <form method="post" action="/auth/signout">
        <button type="submit" className="rounded-md border border-[#475569] px-2 py-1 text-[#f1f5f9] hover:border-[#cbd5e1] hover:text-[#ffffff]">
          Sign out
        </button>
      </form>
    </div>
  );
}
