import type { SignInWith } from "@/lib/signin/sign-in-with";

/** A list's names joined as a sentence says them: "A", "A and B", "A, B and C". */
function spoken(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * The console's sign-in page: what Switchboard is, and "Sign in with …", which begins the flow at
 * /auth/signin (the platform's sign-in page, then back to `next`). A plain link: it works before any script runs.
 */
export function SignInCard({ with: signIn, next }: { with: SignInWith; next: string }) {
  const begin = next === "/" ? "/auth/signin" : `/auth/signin?next=${encodeURIComponent(next)}`;
  return (
    <section aria-labelledby="sign-in-title" className="mx-auto mt-6 max-w-md rounded-xl border border-slate-200 bg-white px-6 py-8 shadow-sm sm:mt-16 sm:px-8">
      <h1 id="sign-in-title" className="text-xl font-semibold tracking-tight text-slate-900">
        Sign in to Switchboard
      </h1>
      <p className="mt-2 text-sm leading-relaxed text-slate-600">
        A developer console for the platform&apos;s Web API: install your app, watch its tokens rotate, call any method and follow its events.
      </p>
      <a
        href={begin}
        className="mt-6 flex w-full items-center justify-center gap-2 rounded-md bg-emerald-700 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-emerald-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
      >
        Sign in with {signIn.name}
      </a>
      {signIn.emulated ? (
        <p className="mt-4 text-xs leading-relaxed text-slate-500">
          {signIn.workspaces.length > 1 ? `Members of ${spoken(signIn.workspaces)} can sign in. ` : ""}
          The embedded emulator stands in for the platform: on its page you pick who you are.
        </p>
      ) : (
        <p className="mt-4 text-xs leading-relaxed text-slate-500">You sign in on {signIn.name}, which tells Switchboard who you are and in which workspace.</p>
      )}
    </section>
  );
}
