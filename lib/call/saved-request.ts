import { z } from "zod";

/**
 * The saved request a call or a Fetch all runs (the collections' id), recorded with its history entry so
 * that a saved request's last runs can be compared. Optional; the console's own key, never forwarded to
 * the platform: in the query of /api/call/{method} and …/all, or in a POST's body.
 */
export const SAVED_REQUEST_KEY = "savedRequestId";

export const SavedRequestIdSchema = z
  .string()
  .min(1, "savedRequestId is empty")
  .max(64, "savedRequestId is at most 64 characters")
  .regex(/^[\x21-\x7e]+$/, "savedRequestId is printable ASCII without spaces");

/** The id from the query or a body's member (a body's wins); undefined when neither names one; 422 when malformed. */
export function readSavedRequestId(...sources: Array<unknown>): string | undefined {
  const given = sources.find((value) => value !== undefined && value !== null);
  if (given === undefined) return undefined;
  return z.object({ [SAVED_REQUEST_KEY]: SavedRequestIdSchema }).parse({ [SAVED_REQUEST_KEY]: given })[SAVED_REQUEST_KEY];
}
