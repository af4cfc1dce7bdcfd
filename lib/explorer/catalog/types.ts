/**
 * The catalog of the platform's Web API methods, as the explorer uses it. Generated from the platform's
 * reference (see scripts/method-catalog/generate.ts); these types are the app's own shape, so nothing else reads the OpenAPI.
 */

import type { HttpMethod } from "@/lib/platform/call-method";

/** How arguments travel: form-encoded (query string or body), or a JSON body with the token in a header. */
export type BodyEncoding = "form" | "json";

/** "json" is text holding JSON (blocks, attachments, metadata, view…): the platform parses it. */
export type ArgumentType = "string" | "integer" | "number" | "boolean" | "json";

/** The platform's rate limit tiers: 1 (1+/min), 2 (20+/min), 3 (50+/min), 4 (100+/min), or a limit of its own. */
export type RateTier = 1 | 2 | 3 | 4 | "special";

export interface CatalogArgument {
  name: string;
  type: ArgumentType;
  /** Absent when optional. */
  required?: true;
  /** The default the reference states, as it would be written in a form. */
  default?: string;
  description?: string;
}

export interface CatalogScopes {
  /** Any one of these lets a bot token call the method (they are alternatives); empty when none is needed. */
  bot: readonly string[];
  user: readonly string[];
  /**
   * False when the reference gives one list for every kind of token (the OpenAPI does), so bot and user
   * repeat it: it may then name legacy scopes (`chat:write:bot`) or ones a token of that kind never gets.
   */
  byTokenKind: boolean;
  /**
   * Present when only one kind of token can call the method: a user token (openid.connect.userInfo, whose
   * `bot` is then empty), a bot token (assistant.threads.*, whose `user` is then empty) or an app configuration token (the apps.manifest.* methods, whose scopes are in
   * `configuration`). Absent: bot and user tokens.
   */
  tokens?: "user" | "bot" | "configuration";
  /** The scopes an app configuration token needs (app_configurations:read or app_configurations:write). */
  configuration?: readonly string[];
}

export interface CatalogError {
  code: string;
  description?: string;
}

export interface CatalogPagination {
  /** The top-level array each page carries (`members`, `channels`, `messages`…). */
  list: string;
}

/** Arguments of which a call needs one, though none is required alone (the platform's pages call them conditionally required). */
export interface CatalogConditionallyRequired {
  args: readonly string[];
  /** What the platform says about them, in a sentence or two. */
  rule: string;
}

export interface CatalogMethod {
  name: string;
  /** The name up to its last dot: `conversations`, `admin.apps`, `oauth.v2`. */
  family: string;
  summary: string;
  docsUrl: string;
  /** The verb the reference documents comes first; POST is always there, since the platform takes it for every method. */
  verbs: readonly HttpMethod[];
  /** Always "form"; "json" too when the method takes a JSON body. */
  encodings: readonly BodyEncoding[];
  /** Required first, then by name. The token is not one of them: the console sends it. */
  args: readonly CatalogArgument[];
  scopes: CatalogScopes;
  /** Absent when the reference does not say. */
  rateTier?: RateTier;
  /** Present when the method is cursor-paginated (takes `cursor`, answers `response_metadata.next_cursor`). */
  pagination?: CatalogPagination;
  /** Shown with the required arguments: a developer nearly always sends one of them. */
  conditionallyRequired?: CatalogConditionallyRequired;
  /** The method's own errors first, then the ones every method can answer. */
  errors: readonly CatalogError[];
  deprecated?: true;
}
