import "server-only";
import { z } from "zod";
import { deleteCookie, readSealedCookie, writeSealedCookie } from "@/lib/session/sealed-cookie";
import type { SignedInPerson } from "./universal/person";

export const SIGNED_IN_COOKIE = "sb_signin";
/** A sign-in lasts a working day; then the person signs in again (the platform remembers them, so it is a click). */
export const SIGNED_IN_TTL_S = 12 * 3600;

const personSchema = z.object({
  userId: z.string().min(1),
  teamId: z.string().min(1),
  teamName: z.string(),
  enterpriseId: z.string().optional(),
  enterpriseName: z.string().optional(),
  name: z.string(),
  email: z.string().optional(),
  picture: z.string().optional(),
}) satisfies z.ZodType<SignedInPerson>;

const cookieSchema = z.object({ person: personSchema, signedInAt: z.number() });

/**
 * Who is signed in in this browser, from its sealed cookie: undefined when nobody is, or when the cookie
 * does not unseal (tampered, sealed with a retired SESSION_PASSWORD, or past its 12 hours: the seal's own
 * time to live, so a copied cookie stops working too).
 */
export async function readSignedInPerson(): Promise<SignedInPerson | undefined> {
  return (await readSealedCookie(SIGNED_IN_COOKIE, cookieSchema, SIGNED_IN_TTL_S))?.person;
}

export async function writeSignedInPerson(person: SignedInPerson, nowMs: number): Promise<void> {
  await writeSealedCookie(SIGNED_IN_COOKIE, { person, signedInAt: nowMs }, SIGNED_IN_TTL_S);
}

export async function clearSignedInPerson(): Promise<void> {
  await deleteCookie(SIGNED_IN_COOKIE);
}
