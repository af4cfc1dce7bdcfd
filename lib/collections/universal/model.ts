/**
 * A saved request and a collection as the browser and the routes see them, their bounds, and the one rule
 * that keeps tokens out: an argument named like a credential, or whose value holds a token, is never kept.
 * Browser-safe: the explorer checks what it saves with the same schema the routes parse with.
 */
import { z } from "zod";
import { isCredentialKey } from "@/lib/platform/credential-params";
import { isValidMethodName } from "@/lib/platform/method-name";

/** Bounds against abuse and mistakes, not budgets: far more than a person keeps at hand. */
export const LIMITS = {
  collectionsPerOwner: 200,
  requestsPerCollection: 200,
  nameChars: 100,
  argsPerRequest: 50,
  argKeyChars: 100,
  /** A Block Kit `blocks` argument is the largest a person writes: 16 KB of text. */
  argValueChars: 16_000,
  bindingsPerRequest: 20,
  pathChars: 200,
  /** A collection file (NDJSON or Postman) as imported. */
  fileBytes: 1_000_000,
} as const;

/**
 * A token of the platform anywhere in a value: bot, user, app-level, configuration and refresh tokens
 * (xoxb-, xoxp-, xoxe.xoxb-, xoxe-, xapp-…). Matched inside a value too ("Bearer xoxb-…", a URL with ?token=).
 */
const TOKEN_IN_TEXT = /(^|[^A-Za-z0-9])(xox[a-z]?(\.xox[a-z])?-|xapp-)[A-Za-z0-9]/i;

export function holdsToken(text: string): boolean {
  return TOKEN_IN_TEXT.test(text);
}

/** Why an argument may not be kept (a credential's name, or a token in its value), or null. */
export function credentialProblem(arg: { key: string; value: string }): string | null {
  if (isCredentialKey(arg.key)) return `"${arg.key.trim()}" carries a credential`;
  if (holdsToken(arg.value) || holdsToken(arg.key)) return `"${arg.key.trim()}" holds a token`;
  return null;
}

const name = z
  .string()
  .trim()
  .min(1, "a name is needed")
  .max(LIMITS.nameChars, `a name is at most ${LIMITS.nameChars} characters`)
  .refine((text) => !holdsToken(text), "a name may not hold a token");

export const NameSchema = name;

export const RequestArgSchema = z.object({
  key: z.string().trim().min(1, "an argument needs a name").max(LIMITS.argKeyChars, `an argument's name is at most ${LIMITS.argKeyChars} characters`),
  value: z.string().max(LIMITS.argValueChars, `an argument's value is at most ${LIMITS.argValueChars} characters`),
});

/** A dotted path into an answer: `channel.id`, `members.0.id`. */
const PATH = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;

export const BindingSchema = z.object({
  param: z
    .string()
    .trim()
    .min(1, "a binding names the argument it fills")
    .max(LIMITS.argKeyChars)
    .refine((text) => !holdsToken(text), "may not hold a token"),
  step: z.number().int().min(1, "steps count from 1").max(LIMITS.requestsPerCollection),
  path: z
    .string()
    .trim()
    .max(LIMITS.pathChars)
    .regex(PATH, "a path is names joined by dots, e.g. channel.id")
    .refine((text) => !holdsToken(text), "may not hold a token"),
});

/** A saved request's fields as sent to the routes and kept: method, verb and encoding, token kind, arguments, bindings. */
export const RequestFieldsSchema = z
  .object({
    name,
    method: z.string().trim().max(100, "a method name is at most 100 characters").refine(isValidMethodName, "not a method name (letters, digits and dots)"),
    httpMethod: z.enum(["GET", "POST"]).default("GET"),
    encoding: z.enum(["form", "json"]).default("form"),
    tokenKind: z.enum(["bot", "user"]).default("bot"),
    args: z.array(RequestArgSchema).max(LIMITS.argsPerRequest, `at most ${LIMITS.argsPerRequest} arguments`).default([]),
    bindings: z.array(BindingSchema).max(LIMITS.bindingsPerRequest, `at most ${LIMITS.bindingsPerRequest} bindings`).default([]),
  })
  .superRefine((request, ctx) => {
    request.args.forEach((arg, i) => {
      const problem = credentialProblem(arg);
      if (problem) ctx.addIssue({ code: "custom", path: ["args", i, "value"], message: `${problem}: a saved request never keeps a token` });
    });
  });

export type RequestFields = z.output<typeof RequestFieldsSchema>;
export type Binding = z.output<typeof BindingSchema>;

export interface SavedRequestView extends RequestFields {
  id: string;
  position: number;
  updatedAt: number;
}

/** A collection as the viewer sees it, and what they may do with it. */
export interface CollectionSummary {
  id: string;
  name: string;
  ownerName: string;
  /** The viewer's own. */
  mine: boolean;
  /** The viewer may rename, reorder, share and delete it (its owner, or an admin). */
  editable: boolean;
  sharedWithTeam: boolean;
  hasLink: boolean;
  requestCount: number;
  updatedAt: number;
}

export interface CollectionView extends CollectionSummary {
  requests: SavedRequestView[];
}
