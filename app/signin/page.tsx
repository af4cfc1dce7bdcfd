import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInCard } from "@/components/sign-in/sign-in-card";
import { getConfig } from "@/lib/config";
import { safeReturnPath } from "@/lib/signin/return-path";
import { signInWith } from "@/lib/signin/sign-in-with";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

/** /signin: where the sign-in gate sends a visitor who is not signed in (lib/signin/gate.ts), `next` the page they asked for. */
export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).next;
  const next = safeReturnPath(typeof raw === "string" ? raw : null);
  // Without sign-in there is nothing to sign in to.
  if (getConfig().auth.mode !== "oidc") redirect(next);
  return <SignInCard with={signInWith()} next={next} />;
}
