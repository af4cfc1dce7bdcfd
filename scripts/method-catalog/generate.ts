/**
 * Builds the method catalog from the platform's reference: its OpenAPI 2.0 description (every path is a
 * method) and the newer per-method documents of platform-methods/ (arguments, scopes per token kind, rate
 * tiers, described errors, and methods the OpenAPI lacks, such as oauth.v2.exchange). Where both describe
 * a method, platform-methods wins. Build-time only (scripts/generate-method-catalog.ts and the tests): the
 * browser loads the generated module, never this one.
 */

import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type {
  ArgumentType,
  BodyEncoding,
  CatalogArgument,
  CatalogConditionallyRequired,
  CatalogError,
  CatalogMethod,
  CatalogScopes,
  RateTier,
} from "../../lib/explorer/catalog/types";
import type { HttpMethod } from "../../lib/platform/call-method";

const OpenApiParameter = z.object({
  name: z.string(),
  in: z.string(),
  type: z.string(),
  required: z.boolean().optional(),
  description: z.string().optional(),
});

const OpenApiResponse = z.object({
  schema: z.unknown().optional(),
  examples: z.record(z.string(), z.unknown()).optional(),
});

const OpenApiOperation = z.object({
  description: z.string(),
  consumes: z.array(z.string()).default([]),
  externalDocs: z.object({ url: z.string() }),
  parameters: z.array(OpenApiParameter).default([]),
  security: z.array(z.record(z.string(), z.array(z.string()))).default([]),
  deprecated: z.boolean().optional(),
  responses: z.record(z.string(), OpenApiResponse),
});
type OpenApiOperation = z.infer<typeof OpenApiOperation>;

const OpenApi = z.object({
  paths: z.record(z.string(), z.object({ get: OpenApiOperation.optional(), post: OpenApiOperation.optional() })),
  definitions: z.record(z.string(), z.unknown()).default({}),
});
type OpenApi = z.infer<typeof OpenApi>;

const PlatformArgument = z.object({
  type: z.string().optional(),
  subtype: z.string().optional(),
  anyOf: z.array(z.object({ type: z.string().optional() })).optional(),
  // An array's items: an array of objects (files.completeUploadExternal's `files`) travels as JSON text.
  items: z.object({ type: z.string().optional() }).optional(),
  desc: z.string().optional(),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
});

const PlatformMethod = z.object({
  /** The platform's page for the method, in the documents transcribed from it (the older copies lack it). */
  documentation: z.string().url().optional(),
  desc: z.string(),
  http_method: z.enum(["GET", "POST"]).optional(),
  scope: z.object({ bot: z.array(z.string()).optional(), user: z.array(z.string()).optional(), configuration: z.array(z.string()).optional() }).default({}),
  // The method takes user tokens only (openid.connect.userInfo); its page names no bot scope.
  user_scope_only: z.boolean().optional(),
  // The method takes bot tokens only (assistant.threads.*); its page names no user scope.
  bot_scope_only: z.boolean().optional(),
  no_scope_required: z.boolean().optional(),
  json_input_supported: z.boolean().optional(),
  rate_limits: z.string().optional(),
  args: z
    .object({
      required: z.array(z.string()).default([]),
      properties: z.record(z.string(), PlatformArgument).default({}),
    })
    .default({ required: [], properties: {} }),
  output: z.object({ properties: z.record(z.string(), z.unknown()).default({}) }).optional(),
  errors: z.record(z.string(), z.object({ desc: z.string().optional() })).default({}),
  examples: z.record(z.string(), z.object({ example: z.unknown() })).default({}),
});
type PlatformMethod = z.infer<typeof PlatformMethod>;

/** The reference as the generator reads it: the parsed OpenAPI, and each platform-methods document by method name. */
export interface MethodReference {
  openapi: unknown;
  platformMethods: Readonly<Record<string, unknown>>;
}

const OPENAPI_FILE = "slack_web_openapi_v2.json";
const PLATFORM_METHODS_DIR = "platform-methods";

/** Reads the reference from its folder (docs/reference in the repository: a copy of the platform's, as docs/spec is of the spec). */
export async function readMethodReference(referenceDir: string): Promise<MethodReference> {
  const openapi: unknown = JSON.parse(await readFile(path.join(referenceDir, OPENAPI_FILE), "utf8"));
  const dir = path.join(referenceDir, PLATFORM_METHODS_DIR);
  const files = (await readdir(dir)).filter((file) => file.endsWith(".json")).sort();
  const platformMethods: Record<string, unknown> = {};
  for (const file of files) {
    platformMethods[file.slice(0, -".json".length)] = JSON.parse(await readFile(path.join(dir, file), "utf8"));
  }
  return { openapi, platformMethods };
}

// Every OpenAPI method's externalDocs.url has this form; a method only platform-methods knows gets the same.
const DOCS_BASE_URL = "https://api.slack.com/methods/";

// The issue names these as JSON; any other argument whose description says JSON is one too.
const JSON_ARGUMENT_NAMES = new Set(["blocks", "attachments", "metadata"]);

// platform-methods writes tiers as t1…t4, and t5 for the methods the README calls special (auth.test, oauth.v2.access).
const RATE_TIERS: Readonly<Record<string, RateTier>> = { t1: 1, t2: 2, t3: 3, t4: 4, t5: "special" };

const ERROR_CODE = /^[a-z][a-z0-9_]*$/;

/**
 * The list each page of these methods carries, where the reference does not show it (its answer is only
 * `{"ok": true}`). Source: the official client's response types, @slack/web-api 7
 * (AdminInviteRequestsListResponse, AdminInviteRequestsApprovedListResponse,
 * AdminInviteRequestsDeniedListResponse, FilesRemoteListResponse; docs.slack.dev/tools/node-slack-sdk/reference/web-api).
 */
const LIST_NAMES: Readonly<Record<string, string>> = {
  "admin.inviteRequests.approved.list": "approved_requests",
  "admin.inviteRequests.denied.list": "denied_requests",
  "admin.inviteRequests.list": "invite_requests",
  "files.remote.list": "files",
};

/**
 * Arguments the platform's method pages call conditionally required: none is required alone, but a call
 * needs one of them, so a developer nearly always sends one. The reference's documents mark them optional.
 * Source: the "Arguments" section of each method's page (api.slack.com/methods/chat.postMessage,
 * chat.postEphemeral, chat.scheduleMessage, chat.update), which lists attachments, blocks and text as
 * conditionally required: "One of these arguments is required to describe the content of the message. If
 * attachments or blocks are included, text will be used as fallback text for notifications only."
 */
const MESSAGE_CONTENT = {
  args: ["text", "blocks", "attachments"],
  rule: "One of text, blocks or attachments is required: it is the message's content. With blocks or attachments, text is the fallback shown in notifications.",
} as const satisfies CatalogConditionallyRequired;
const CONDITIONALLY_REQUIRED: Readonly<Record<string, CatalogConditionallyRequired>> = {
  "chat.postEphemeral": MESSAGE_CONTENT,
  "chat.postMessage": MESSAGE_CONTENT,
  "chat.scheduleMessage": MESSAGE_CONTENT,
  "chat.update": MESSAGE_CONTENT,
};

/**
 * Sentences that send the reader elsewhere on the page the text was copied from ("See below for more
 * details", "See authorship below", "(see below)") or to a page whose link the text loses ("See pagination
 * for more detail", "Read more on how to specify users here"): in the console they point nowhere, so they
 * go. A pointer to another method ("See chat.postMessage") stays: the catalog has it.
 */
const POINTERS: readonly RegExp[] = [
  // A sentence that starts by pointing: "See [below](#channels) for more details.", "[Read more …](/apis/calls#users)."
  /(?:^|\s)\[?(?:See|Read more)\b[^.]*?(?:\]\((?:#|\/)[^)]*\)|\bbelow\b|\babove\b)[^.]*\./g,
  // A parenthesis that points: "(see below)", "([see below](#file_types))".
  /\s*\(\[?see (?:below|above)\]?(?:\([^)]*\))?\)/gi,
  // A clause that points to documentation it does not link: ", read the Rate Limit documentation for more information".
  /,\s*\[?read the [^\]]*?documentation\]?(?:\([^)]*\))? for more information/gi,
];

/** The first paragraph, without pointers that lead nowhere, with markdown links reduced to their text and whitespace folded. */
function cleanText(text: string): string {
  const firstParagraph = text.trim().split(/\n\s*\n/)[0] ?? "";
  return POINTERS.reduce((kept, pointer) => kept.replace(pointer, ""), firstParagraph)
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

const DEFAULT_STATEMENT = /\bdefault(?:s to| is| value is|:)/gi;
const STATED_DEFAULTS = [/\bdefault(?:s to| is| value is|:)\s*`([^`]+)`/i, /\bdefault(?:s to| is|:)\s*(true|false|-?\d+)(?=[.,;)]|$)/i];

/**
 * A default the description states as a value ("Defaults to `false`", "(default: false)"), not as prose
 * ("Defaults to the authed user"). Two statements make it conditional ("Defaults to true if …. Otherwise,
 * defaults to false."): there is then no one default to show.
 */
function statedDefault(description: string): string | undefined {
  if ((description.match(DEFAULT_STATEMENT) ?? []).length !== 1) return undefined;
  for (const pattern of STATED_DEFAULTS) {
    const match = pattern.exec(description);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolveRef(schema: unknown, openapi: OpenApi): unknown {
  if (!isRecord(schema) || typeof schema.$ref !== "string") return schema;
  return openapi.definitions[schema.$ref.replace("#/definitions/", "")];
}

function jsonExample(response: z.infer<typeof OpenApiResponse> | undefined): Record<string, unknown> | undefined {
  const example = response?.examples?.["application/json"];
  return isRecord(example) ? example : undefined;
}

interface Sources {
  name: string;
  verb?: HttpMethod;
  operation?: OpenApiOperation;
  platform?: PlatformMethod;
}

function platformType(argument: z.infer<typeof PlatformArgument>): string {
  if (argument.type === "array" && argument.items?.type === "object") return "array of objects";
  if (argument.type !== undefined) return argument.type;
  const types = (argument.anyOf ?? []).map((option) => option.type).filter((type) => type !== undefined && type !== "null");
  // A field that takes, say, a string or a boolean is typed in a form as text.
  return types.length === 1 && types[0] !== undefined ? types[0] : "string";
}

function argumentType(name: string, types: readonly string[], descriptions: readonly string[]): ArgumentType {
  if (JSON_ARGUMENT_NAMES.has(name) || types.includes("array of objects") || descriptions.some((description) => /\bJSON\b/.test(description))) return "json";
  // The newer document says "number" for counts the OpenAPI calls integers (limit): the narrower type wins.
  if (types.includes("integer")) return "integer";
  const type = types[0];
  return type === "boolean" || type === "number" ? type : "string";
}

function buildArguments({ operation, platform }: Sources): CatalogArgument[] {
  const fromOpenApi = new Map(
    // The OpenAPI's `token` is always the caller's token, which the console sends itself.
    (operation?.parameters ?? []).filter((parameter) => parameter.name !== "token").map((parameter) => [parameter.name, parameter]),
  );
  const fromPlatform = new Map(
    // platform-methods marks the caller's token as subtype "auth"; oauth.v2.exchange's `token` is the one to exchange.
    Object.entries(platform?.args.properties ?? {}).filter(([, argument]) => argument.subtype !== "auth"),
  );
  const requiredInPlatform = new Set(platform?.args.required ?? []);
  const names = [...new Set([...fromPlatform.keys(), ...fromOpenApi.keys()])];

  const args = names.map((name): CatalogArgument => {
    const newer = fromPlatform.get(name);
    const older = fromOpenApi.get(name);
    const rawDescriptions = [newer?.desc, older?.description].filter((text): text is string => text !== undefined && text !== "");
    const types = [newer && platformType(newer), older?.type].filter((type): type is string => type !== undefined);
    // The newer document decides what is required: oauth.v2.access no longer needs `code` (refresh grant).
    const required = platform ? requiredInPlatform.has(name) : older?.required === true;
    const stated = newer?.default ?? rawDescriptions.map(statedDefault).find((value) => value !== undefined);
    const description = rawDescriptions[0] === undefined ? "" : cleanText(rawDescriptions[0]);
    return {
      name,
      type: argumentType(name, types, rawDescriptions),
      ...(required ? { required: true as const } : {}),
      ...(stated === undefined ? {} : { default: String(stated) }),
      ...(description === "" ? {} : { description }),
    };
  });
  return args.sort((a, b) => Number(b.required === true) - Number(a.required === true) || compare(a.name, b.name));
}

function buildScopes(name: string, { operation, platform }: Sources): CatalogScopes {
  if (platform) {
    const { bot, user, configuration } = platform.scope;
    if (configuration !== undefined) {
      // An app configuration token (the apps.manifest.* methods): bot and user tokens cannot call the method.
      return { bot: [], user: [], byTokenKind: true, tokens: "configuration", configuration: [...configuration].sort(compare) };
    }
    if (platform.user_scope_only === true && user !== undefined && bot === undefined) {
      return { bot: [], user: [...user].sort(compare), byTokenKind: true, tokens: "user" };
    }
    if (platform.bot_scope_only === true && bot !== undefined && user === undefined) {
      return { bot: [...bot].sort(compare), user: [], byTokenKind: true, tokens: "bot" };
    }
    if (platform.no_scope_required === true || (bot === undefined && user === undefined)) {
      return { bot: [], user: [], byTokenKind: true };
    }
    if (bot === undefined || user === undefined) {
      throw new Error(
        `platform-methods/${name}.json lists scopes for ${bot ? "bot" : "user"} tokens only: the catalog cannot yet say that a token kind cannot call a method`,
      );
    }
    return { bot: [...bot].sort(compare), user: [...user].sort(compare), byTokenKind: true };
  }
  // The OpenAPI names a scope in the token's description and others in `security`, in one list for every kind of
  // token; the platform accepts any one of them (channels:history for a channel, im:history for a DM…).
  const token = operation?.parameters.find((parameter) => parameter.name === "token");
  const described = /Requires scope: `([^`]+)`/.exec(token?.description ?? "")?.[1];
  const secured = (operation?.security ?? []).flatMap((requirement) => Object.values(requirement).flat());
  const scopes = [...new Set([described, ...secured])].filter((scope): scope is string => scope !== undefined && scope !== "none").sort(compare);
  return { bot: scopes, user: scopes, byTokenKind: false };
}

function buildErrors({ operation, platform }: Sources): CatalogError[] {
  const errors = new Map<string, CatalogError>();
  for (const [code, { desc }] of Object.entries(platform?.errors ?? {})) {
    const description = desc === undefined ? "" : cleanText(desc);
    errors.set(code, description === "" ? { code } : { code, description });
  }
  const failure = operation?.responses.default;
  const schema = isRecord(failure?.schema) ? failure.schema : {};
  const errorProperty = isRecord(schema.properties) ? schema.properties.error : undefined;
  const enumerated = isRecord(errorProperty) && Array.isArray(errorProperty.enum) ? errorProperty.enum : [];
  const examples = [jsonExample(failure), platform?.examples.error?.example].filter(isRecord);
  const exampleCodes = examples
    // api.test echoes its `error` argument: that example shows the argument, not an error of the method.
    .filter((example) => !(isRecord(example.args) && example.args.error === example.error))
    .map((example) => example.error);
  for (const code of [...enumerated, ...exampleCodes]) {
    if (typeof code === "string" && ERROR_CODE.test(code) && !errors.has(code)) errors.set(code, { code });
  }
  return [...errors.values()];
}

function topLevelArrays(properties: unknown, openapi: OpenApi): string[] {
  if (!isRecord(properties)) return [];
  return Object.entries(properties)
    .filter(([, schema]) => {
      const resolved = resolveRef(schema, openapi);
      return isRecord(resolved) && resolved.type === "array";
    })
    .map(([name]) => name);
}

function mentionsNextCursor(body: Record<string, unknown> | undefined): boolean {
  const metadata = body?.response_metadata;
  return isRecord(metadata) && "next_cursor" in metadata;
}

/**
 * Cursor-paginated: takes `cursor`, and the reference shows `response_metadata.next_cursor` in its answer
 * (schema or example) or says in the cursor's own description that its value is a `next_cursor`. The list
 * is the first top-level array the success schema, then the examples, show, or LIST_NAMES's where they show none.
 */
function buildPagination({ name, operation, platform }: Sources, args: readonly CatalogArgument[], openapi: OpenApi): CatalogMethod["pagination"] {
  if (!args.some((argument) => argument.name === "cursor")) return undefined;
  const success = operation?.responses["200"];
  const schema = resolveRef(success?.schema, openapi);
  const schemaProperties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const outputProperties = platform?.output?.properties ?? {};
  const examples = [jsonExample(success), platform?.examples.success?.example].filter(isRecord);
  const cursorDescriptions = [platform?.args.properties.cursor?.desc, operation?.parameters.find((p) => p.name === "cursor")?.description];

  const answersNextCursor =
    "response_metadata" in schemaProperties ||
    "response_metadata" in outputProperties ||
    examples.some(mentionsNextCursor) ||
    cursorDescriptions.some((description) => description?.includes("next_cursor") === true);
  if (!answersNextCursor) return undefined;

  const shown = [
    ...topLevelArrays(schemaProperties, openapi),
    ...topLevelArrays(outputProperties, openapi),
    ...examples.flatMap((example) => Object.keys(example).filter((key) => Array.isArray(example[key]))),
  ][0];
  const named = LIST_NAMES[name];
  if (shown !== undefined && named !== undefined) throw new Error(`${name}: the reference now shows its list (${shown}); remove it from LIST_NAMES`);
  const list = shown ?? named;
  if (list === undefined) throw new Error(`${name} is cursor-paginated, but neither the reference nor LIST_NAMES names the list its pages carry`);
  return { list };
}

function buildMethod(sources: Sources, openapi: OpenApi): CatalogMethod {
  const { name, verb, operation, platform } = sources;
  const preferred = platform?.http_method ?? verb ?? "POST";
  // POST always: the platform takes it for every method, and its official client (@slack/web-api) POSTs every call.
  const verbs = [...new Set<HttpMethod>([preferred, ...(verb ? [verb] : []), "POST"])];
  const encodings: BodyEncoding[] =
    operation?.consumes.includes("application/json") === true || platform?.json_input_supported === true ? ["form", "json"] : ["form"];
  const args = buildArguments(sources);
  const rateTier = rateTierOf(name, platform);
  const pagination = buildPagination(sources, args, openapi);
  const conditionallyRequired = CONDITIONALLY_REQUIRED[name];
  const deprecated =
    operation?.deprecated === true || [platform?.desc, operation?.description].some((text) => text !== undefined && /\bdeprecated\b/i.test(text));
  return {
    name,
    family: name.slice(0, name.lastIndexOf(".")),
    summary: cleanText(platform?.desc ?? operation?.description ?? ""),
    docsUrl: operation?.externalDocs.url ?? platform?.documentation ?? `${DOCS_BASE_URL}${name}`,
    verbs,
    encodings,
    args,
    scopes: buildScopes(name, sources),
    ...(rateTier === undefined ? {} : { rateTier }),
    ...(pagination === undefined ? {} : { pagination }),
    ...(conditionallyRequired === undefined ? {} : { conditionallyRequired }),
    errors: buildErrors(sources),
    ...(deprecated ? { deprecated: true as const } : {}),
  };
}

function rateTierOf(name: string, platform: PlatformMethod | undefined): RateTier | undefined {
  if (platform?.rate_limits === undefined) return undefined;
  const tier = RATE_TIERS[platform.rate_limits];
  if (tier === undefined) throw new Error(`platform-methods/${name}.json: unknown rate_limits "${platform.rate_limits}"`);
  return tier;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every method of the reference, sorted by name. */
export function buildMethodCatalog(openapi: unknown, platformMethods: Readonly<Record<string, unknown>>): CatalogMethod[] {
  const spec = OpenApi.parse(openapi);
  const sources = new Map<string, Sources>();
  for (const [pathName, item] of Object.entries(spec.paths)) {
    const name = pathName.replace(/^\//, "");
    const verb: HttpMethod | undefined = item.get ? "GET" : item.post ? "POST" : undefined;
    sources.set(name, { name, verb, operation: item.get ?? item.post });
  }
  for (const [name, document] of Object.entries(platformMethods)) {
    const parsed = PlatformMethod.safeParse(document);
    if (!parsed.success) throw new Error(`platform-methods/${name}.json: ${z.prettifyError(parsed.error)}`);
    sources.set(name, { ...(sources.get(name) ?? { name }), platform: parsed.data });
  }
  const catalog = [...sources.values()].map((source) => buildMethod(source, spec)).sort((a, b) => compare(a.name, b.name));
  // The hand-written lists must keep up with the reference (a reference cut down to a few methods, as in tests, lacks the others).
  for (const method of catalog) {
    if (LIST_NAMES[method.name] !== undefined && !method.pagination) throw new Error(`LIST_NAMES names ${method.name}, which the catalog does not page`);
    const missing = (CONDITIONALLY_REQUIRED[method.name]?.args ?? []).filter(
      (name) => !method.args.some((argument) => argument.name === name && argument.required !== true),
    );
    if (missing.length > 0) throw new Error(`CONDITIONALLY_REQUIRED: ${method.name} has no optional argument ${missing.join(", ")}`);
  }
  return catalog;
}

const GENERATED_HEADER = [
  "// Generated by scripts/generate-method-catalog.ts from the platform's reference:",
  `// docs/reference/${OPENAPI_FILE} and docs/reference/${PLATFORM_METHODS_DIR}/*.json.`,
  "// Do not edit: run `npm run catalog`. tests/unit/explorer/catalog fails when this file and the reference disagree.",
].join("\n");

/**
 * The list each paginated method's pages carry, by method: a module of its own, small enough for code that
 * reads answers (the results table, the walk) to import without loading the whole catalog.
 */
export function generateListsSource(openapi: unknown, platformMethods: Readonly<Record<string, unknown>>): string {
  const lists = buildMethodCatalog(openapi, platformMethods).flatMap((method) => (method.pagination ? [[method.name, method.pagination.list]] : []));
  return [
    GENERATED_HEADER,
    "",
    "/** The top-level array each page of a cursor-paginated method carries, by method name: the catalog's `pagination.list`. */",
    "export const PAGINATED_LISTS: Readonly<Record<string, string>> = {",
    ...lists.map(([name, list]) => `  ${JSON.stringify(name)}: ${JSON.stringify(list)},`),
    "};",
    "",
  ].join("\n");
}

// A text this long that recurs (the cursor's description, "Issued when you created your application.") is written once.
const SHARED_TEXT_MIN_LENGTH = 40;

/** The catalog as a TypeScript module: one method per block, recurring long texts hoisted into constants. */
export function generateCatalogSource(openapi: unknown, platformMethods: Readonly<Record<string, unknown>>): string {
  const catalog = buildMethodCatalog(openapi, platformMethods);

  const uses = new Map<string, number>();
  const count = (text: string | undefined) => {
    if (text !== undefined && text.length >= SHARED_TEXT_MIN_LENGTH) uses.set(text, (uses.get(text) ?? 0) + 1);
  };
  for (const method of catalog) {
    count(method.summary);
    method.args.forEach((argument) => count(argument.description));
    method.errors.forEach((error) => count(error.description));
    count(method.conditionallyRequired?.rule);
  }
  const shared = new Map([...uses].filter(([, n]) => n > 1).map(([text], index) => [text, `TEXT_${index + 1}`]));
  const text = (value: string) => shared.get(value) ?? JSON.stringify(value);

  const renderArgument = (argument: CatalogArgument) => {
    const fields = [`name: ${JSON.stringify(argument.name)}`, `type: ${JSON.stringify(argument.type)}`];
    if (argument.required) fields.push("required: true");
    if (argument.default !== undefined) fields.push(`default: ${JSON.stringify(argument.default)}`);
    if (argument.description !== undefined) fields.push(`description: ${text(argument.description)}`);
    return `      { ${fields.join(", ")} },`;
  };
  // Most codes come without a description: they are written as one space-separated string per method.
  const renderErrors = (errors: readonly CatalogError[]) => {
    const described = errors.filter((error) => error.description !== undefined);
    const bare = errors.filter((error) => error.description === undefined).map((error) => error.code);
    if (errors.length === 0) return "    errors: [],";
    if (errors.some((error, index) => error.description !== undefined && index >= described.length)) {
      throw new Error("described errors come first: the platform's documents describe theirs, the OpenAPI describes none");
    }
    return [
      "    errors: [",
      ...described.map((error) => `      { code: ${JSON.stringify(error.code)}, description: ${text(error.description ?? "")} },`),
      ...(bare.length === 0 ? [] : [`      ...codes(${JSON.stringify(bare.join(" "))}),`]),
      "    ],",
    ].join("\n");
  };
  const list = (values: readonly string[]) => `[${values.map((value) => JSON.stringify(value)).join(", ")}]`;

  const renderScopes = ({ bot, user, tokens, configuration }: CatalogScopes) =>
    [
      `{ bot: ${list(bot)}, user: ${list(user)}, byTokenKind: true`,
      tokens === undefined ? "" : `, tokens: ${JSON.stringify(tokens)}`,
      configuration === undefined ? "" : `, configuration: ${list(configuration)}`,
      " }",
    ].join("");

  const renderMethod = (method: CatalogMethod) => {
    const lines = [
      "  {",
      `    name: ${JSON.stringify(method.name)},`,
      `    family: ${JSON.stringify(method.family)},`,
      `    summary: ${text(method.summary)},`,
      `    docsUrl: ${JSON.stringify(method.docsUrl)},`,
      `    verbs: ${list(method.verbs)},`,
      `    encodings: ${list(method.encodings)},`,
      method.args.length === 0 ? "    args: []," : ["    args: [", ...method.args.map(renderArgument), "    ],"].join("\n"),
      method.scopes.byTokenKind ? `    scopes: ${renderScopes(method.scopes)},` : `    scopes: anyToken(${list(method.scopes.bot)}),`,
    ];
    if (method.rateTier !== undefined) lines.push(`    rateTier: ${JSON.stringify(method.rateTier)},`);
    if (method.pagination !== undefined) lines.push(`    pagination: { list: ${JSON.stringify(method.pagination.list)} },`);
    if (method.conditionallyRequired !== undefined) {
      const { args, rule } = method.conditionallyRequired;
      lines.push(`    conditionallyRequired: { args: ${list(args)}, rule: ${text(rule)} },`);
    }
    lines.push(renderErrors(method.errors));
    if (method.deprecated) lines.push("    deprecated: true,");
    lines.push("  },");
    return lines.join("\n");
  };

  return [
    GENERATED_HEADER,
    "",
    'import type { CatalogError, CatalogMethod, CatalogScopes } from "./types";',
    "",
    'const codes = (list: string): CatalogError[] => list.split(" ").map((code) => ({ code }));',
    "const anyToken = (scopes: readonly string[]): CatalogScopes => ({ bot: scopes, user: scopes, byTokenKind: false });",
    "",
    ...[...shared].map(([value, name]) => `const ${name} = ${JSON.stringify(value)};`),
    "",
    "export const METHOD_CATALOG: readonly CatalogMethod[] = [",
    ...catalog.map(renderMethod),
    "];",
    "",
  ].join("\n");
}
