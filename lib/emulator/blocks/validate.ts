/**
 * Block Kit's structure checked as the platform checks it, from the specs in this folder: every problem
 * as the platform words it, with a JSON pointer into the request ("unsupported type: bogus
 * [json-pointer:/blocks/0/type]"). chat.* answer them as `invalid_blocks` (`errors`, and each with
 * "[ERROR] " in response_metadata.messages), views.* as `invalid_arguments`, webhooks as the plain-text
 * `invalid_blocks`. Wordings the platform's answers were seen with: "must provide an object", "unsupported
 * type", "missing required field", "must be less than N characters", "must be more than 0 characters",
 * "no more than N items allowed", "failed to match all allowed schemas", "must define either `text` or
 * `fields`"; the others (a wrong kind of value, a duplicate id, a block a surface does not show) are the
 * emulator's, in the same style (docs/emulator.md, "Block Kit").
 */
import { COMPOSITION } from "./composition";
import { ELEMENTS } from "./elements";
import { BLOCKS, MAX_BLOCKS, RICH_TEXT } from "./layout-blocks";
import type { FieldSpec, ObjectSpec, Surface } from "./schema";

interface ValidateOptions {
  surface: Surface;
  /** Where the blocks sit in the request: `/blocks` (chat.*, webhooks) or `/view/blocks` (views.*). */
  pointer?: string;
}

/** The platform lists a few problems, not thousands: past this many the rest are left out. */
const MAX_PROBLEMS = 20;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const at = (message: string, pointer: string) => `${message} [json-pointer:${pointer}]`;
const length = (text: string) => Array.from(text).length;

interface Walk {
  surface: Surface;
  problems: string[];
}

function checkString(value: unknown, spec: Extract<FieldSpec, { kind: "string" }>, pointer: string, walk: Walk): void {
  if (typeof value !== "string") return void walk.problems.push(at("must be a string", pointer));
  if (spec.oneOf && !spec.oneOf.includes(value)) walk.problems.push(at(`must be one of ${spec.oneOf.map((v) => `"${v}"`).join(", ")}`, pointer));
  if (spec.nonEmpty && value === "") walk.problems.push(at("must be more than 0 characters", pointer));
  if (spec.max !== undefined && length(value) > spec.max) walk.problems.push(at(`must be less than ${spec.max + 1} characters`, pointer));
}

function checkText(value: unknown, spec: Extract<FieldSpec, { kind: "text" }>, pointer: string, walk: Walk): void {
  if (!isObject(value)) return void walk.problems.push(at("must provide an object", pointer));
  const inner: string[] = [];
  if (!spec.types.includes(value.type as "plain_text")) {
    inner.push(at(spec.types.length === 1 ? `must be "${spec.types[0]}"` : "unsupported type", `${pointer}/type`));
  }
  if (value.text === undefined) inner.push(at("missing required field: text", pointer));
  else checkString(value.text, { kind: "string", max: spec.max, nonEmpty: true }, `${pointer}/text`, { ...walk, problems: inner });
  for (const flag of ["emoji", "verbatim"]) {
    if (value[flag] !== undefined && typeof value[flag] !== "boolean") inner.push(at("must be a boolean", `${pointer}/${flag}`));
  }
  // A field that takes either kind of text object says first that it matched neither.
  if (inner.length > 0 && spec.types.length > 1) walk.problems.push(at("failed to match all allowed schemas", pointer));
  walk.problems.push(...inner);
}

function checkField(value: unknown, spec: FieldSpec, pointer: string, walk: Walk): void {
  switch (spec.kind) {
    case "string":
      return checkString(value, spec, pointer, walk);
    case "boolean":
      if (typeof value !== "boolean") walk.problems.push(at("must be a boolean", pointer));
      return;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) walk.problems.push(at("must be a number", pointer));
      return;
    case "text":
      return checkText(value, spec, pointer, walk);
    case "object":
      return checkObject(value, COMPOSITION[spec.name] as ObjectSpec, pointer, walk);
    case "element":
      return checkTyped(value, ELEMENTS_AND_PARTS, spec.types, pointer, walk);
    case "list":
      if (!Array.isArray(value)) return void walk.problems.push(at("must be an array", pointer));
      if (spec.max !== undefined && value.length > spec.max) walk.problems.push(at(`no more than ${spec.max} items allowed`, pointer));
      if (spec.min !== undefined && value.length < spec.min)
        walk.problems.push(at(`must provide at least ${spec.min} item${spec.min === 1 ? "" : "s"}`, pointer));
      value.forEach((item, i) => checkField(item, spec.item, `${pointer}/${i}`, walk));
      return;
    case "any":
      return;
  }
}

/** An object's fields against its spec: required ones present, given ones well formed, `either` met. */
function checkObject(value: unknown, spec: ObjectSpec, pointer: string, walk: Walk): void {
  if (!isObject(value)) return void walk.problems.push(at("must provide an object", pointer));
  for (const [name, field] of Object.entries(spec.fields)) {
    const given = value[name];
    if (given === undefined || given === null) {
      if (field.required) walk.problems.push(at(`missing required field: ${name}`, pointer));
      continue;
    }
    checkField(given, field, `${pointer}/${name}`, walk);
  }
  if (spec.either && !spec.either.some((name) => value[name] !== undefined && value[name] !== null)) {
    walk.problems.push(at(`must define either ${spec.either.map((n) => `\`${n}\``).join(" or ")}`, `${pointer}/type`));
  }
}

/** An object with a `type` from `registry`, of one of `allowed` and shown on the walk's surface. */
function checkTyped(value: unknown, registry: Readonly<Record<string, ObjectSpec>>, allowed: readonly string[], pointer: string, walk: Walk): void {
  if (!isObject(value)) return void walk.problems.push(at("must provide an object", pointer));
  if (value.type === undefined) return void walk.problems.push(at("missing required field: type", pointer));
  const type = String(value.type);
  const spec = allowed.includes(type) ? registry[type] : undefined;
  if (!spec || (spec.surfaces && !spec.surfaces.includes(walk.surface))) {
    return void walk.problems.push(at(`unsupported type: ${type}`, `${pointer}/type`));
  }
  checkObject(value, spec, pointer, walk);
  if (type === "actions" && Array.isArray(value.elements)) checkUnique(value.elements, "action_id", `${pointer}/elements`, walk);
}

/** Ids that must differ: block_ids in one message or view, action_ids in one actions block. */
function checkUnique(items: unknown[], field: "block_id" | "action_id", pointer: string, walk: Walk): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const id = isObject(item) ? item[field] : undefined;
    if (typeof id !== "string") return;
    if (seen.has(id)) walk.problems.push(at(`duplicate ${field}: ${id}`, `${pointer}/${i}/${field}`));
    seen.add(id);
  });
}

const ELEMENTS_AND_PARTS: Readonly<Record<string, ObjectSpec>> = { ...ELEMENTS, ...RICH_TEXT };
const BLOCK_TYPES = Object.keys(BLOCKS);

/**
 * The problems of a message's or view's `blocks` (none: they are valid), each as the platform words it
 * with its JSON pointer, without the "[ERROR] " the answers' response_metadata.messages put before it.
 */
export function validateBlocks(blocks: unknown, options: ValidateOptions): string[] {
  const pointer = options.pointer ?? "/blocks";
  const walk: Walk = { surface: options.surface, problems: [] };
  if (!Array.isArray(blocks)) return [at("must be an array", pointer)];
  const max = MAX_BLOCKS[options.surface];
  if (blocks.length > max) walk.problems.push(at(`no more than ${max} items allowed`, pointer));
  blocks.forEach((block, i) => checkTyped(block, BLOCKS, BLOCK_TYPES, `${pointer}/${i}`, walk));
  checkUnique(blocks, "block_id", pointer, walk);
  return walk.problems.slice(0, MAX_PROBLEMS);
}
