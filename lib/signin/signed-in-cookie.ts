import "server-only";
import { z } from "zod";
import { deleteCookie, readSealedCookie, writeSealedCookie } from "@/lib/http/sealed-cookie";
import { getStore } from "@/lib/store";
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

const cookieSchema = z.object({
  person: personSchema,
  signedInAt: z.number(),
  /** How many times the person had signed out when this was sealed (the store's count); cookies sealed before it existed: 0. */
  signOuts: z.number().int().nonnegative().default(0),
});

/** Whose sign-outs a sign-in counts against: the person in their workspace (the owner key of lib/access/viewer.ts). */
const personKey = (person: SignedInPerson) => `${person.teamId}:${person.userId}`;

/**
 * Who is signed in in this browser: undefined when nobody is. The sealed cookie says who, and its seal
 * ends with its 12 hours; it alone no longer decides whether the sign-in still holds. The store's count of
 * the person's sign-outs does (from this process's cache: no round trip once the person has been seen): a
 * cookie sealed before their last sign-out, a copy kept from before it included, is over, on every
 * instance. A cookie that does not unseal (tampered, sealed with a retired SESSION_PASSWORD, past its 12
 * hours) or is over is cleared on the way.
 */
export async function readSignedInPerson(): Promise<SignedInPerson | undefined> {
  const sealed = await readSealedCookie(SIGNED_IN_COOKIE, cookieSchema, SIGNED_IN_TTL_S);
  if (!sealed) return undefined;
  const current = await (await getStore()).signOuts.generation(personKey(sealed.person));
  if (sealed.signOuts >= current) return sealed.person;
  await forgetCookie();
  return undefined;
}

export async function writeSignedInPerson(person: SignedInPerson, nowMs: number): Promise<void> {
  const signOuts = await (await getStore()).signOuts.generation(personKey(person));
  await writeSealedCookie(SIGNED_IN_COOKIE, { person, signedInAt: nowMs, signOuts }, SIGNED_IN_TTL_S);
}

async function forgetCookie(): Promise<void> {
  try {
    await deleteCookie(SIGNED_IN_COOKIE);
  } catch {
    // Server components cannot write cookies; the next route handler that reads it clears it.
  }
}

/**
 * Sign-out: the person's sign-outs are counted in the store, which ends every sign-in of theirs sealed
 * before now (this browser's, a copy of its cookie, their other browsers'), and this browser's cookie is
 * cleared. A cookie that is already over (or none) only clears.
 */
export async function signOut(nowMs: number): Promise<void> {
  const sealed = await readSealedCookie(SIGNED_IN_COOKIE, cookieSchema, SIGNED_IN_TTL_S);
  if (sealed) await (await getStore()).signOuts.record(personKey(sealed.person), nowMs);
  await deleteCookie(SIGNED_IN_COOKIE);
}
