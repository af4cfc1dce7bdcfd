/**
 * Sign-outs (lib/signin/signed-in-cookie.ts): per person, how many times they signed out. A sign-in
 * cookie carries the count as it was when it was sealed, and stops working once it is behind: a copy of the
 * cookie taken before a sign-out is refused on every instance, though its seal still opens.
 *
 * No `server-only` here: drizzle-kit loads the schema outside Next.js.
 */
import { bigint, integer, pgTable, text } from "drizzle-orm/pg-core";

export const signOuts = pgTable("sign_outs", {
  /** `<team id>:<user id>`, as the signed-in person's owner key (lib/access/viewer.ts). */
  person: text("person").primaryKey(),
  generation: integer("generation").notNull(),
  signedOutAt: bigint("signed_out_at", { mode: "number" }).notNull(),
});
