/**
 * Who is signed in, as the console keeps it (browser-safe: GET /api/me answers it as it is). Read from the
 * ID token's claims: the standard ones and the platform's namespaced ones (https://slack.com/…).
 */
export interface SignedInPerson {
  userId: string;
  teamId: string;
  teamName: string;
  /** Present on an Enterprise Grid organization (https://slack.com/enterprise_id). */
  enterpriseId?: string;
  enterpriseName?: string;
  name: string;
  email?: string;
  picture?: string;
}

/** What GET /api/me answers: the sign-in mode, and who is signed in (null when nobody, or with AUTH_MODE=none). */
export interface MeAnswer {
  authMode: "none" | "oidc";
  person: SignedInPerson | null;
  /**
   * Whether this person may do what only admins may (change app settings, API keys), so pages offer only what
   * the server will allow: true for the operator of a console without sign-in, false for nobody signed in.
   */
  admin: boolean;
}
