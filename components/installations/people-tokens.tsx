"use client";

import type { InstallationView } from "@/lib/installations/universal/view";
import { cappedExpiry } from "@/lib/installations/universal/token-lifetime";

/**
 * Every person's user token in this installation (user tokens belong to people: each member who installed
 * with user scopes keeps their own), when there is more than the one the card's rows act with, or when this
 * person has none of their own: who holds one, masked, and where it stands.
 */
export function PeopleTokens({ installation, viewerId, now }: { installation: InstallationView; viewerId: string | null; now: number }) {
  const tokens = installation.userTokens;
  const mine = installation.user !== null;
  if (tokens.length === 0 || (tokens.length === 1 && mine)) return null;
  return (
    <section aria-label="People's user tokens" className="px-5 py-3 text-xs text-slate-700">
      <h3 className="text-sm font-medium text-slate-900">User tokens of {tokens.length === 1 ? "one person" : `${tokens.length} people`}</h3>
      {!mine && (
        <p className="mt-1 text-slate-600">
          You have no user token here: each person who installs with user scopes gets their own, which acts as them. Install the app yourself (Reinstall) to get
          one.
        </p>
      )}
      <ul className="mt-2 grid gap-1">
        {tokens.map(({ userId, token }) => (
          <li key={userId ?? "nobody"} className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="font-mono text-slate-800">
              {userId ?? "(installed before tokens were per person)"}
              {userId !== null && userId === viewerId ? " (you)" : ""}
              {userId !== null && userId === installation.authedUserId ? " · installed last" : ""}
            </span>
            <code className="font-mono text-slate-600">{token.masked}</code>
            <span className="text-slate-600">{peopleTokenState(token, now)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function peopleTokenState(token: InstallationView["userTokens"][number]["token"], now: number): string {
  if (token.revoked) return "revoked";
  if (!token.rotating || token.expiresAt === null) return "long-lived";
  const left = cappedExpiry(token.expiresAt, now) - now;
  if (left <= 0) return "expired (refreshed at its next use)";
  const hours = Math.floor(left / 3_600_000);
  const minutes = Math.floor((left % 3_600_000) / 60_000);
  return `rotating, expires in ${hours > 0 ? `${hours} h ` : ""}${minutes} min`;
}
