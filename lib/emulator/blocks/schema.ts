/**
 * The little language Block Kit's structure is written in (one file per family: composition.ts,
 * elements.ts, layout-blocks.ts), read by validate.ts. A spec names each field's kind, whether it is
 * required and its limits, as the platform's Block Kit reference lists them
 * (https://docs.slack.dev/reference/block-kit/blocks, …/block-elements, …/composition-objects).
 */

/** Where blocks are shown: a message (chat.*, webhooks), a modal, an App Home tab. */
export type Surface = "message" | "modal" | "home";

export type TextType = "plain_text" | "mrkdwn";

export type FieldSpec = { required?: boolean } & (
  | { kind: "string"; max?: number; nonEmpty?: boolean; oneOf?: readonly string[] }
  | { kind: "boolean" }
  | { kind: "number" }
  /** A text object of one of `types`, its `text` at most `max` characters. */
  | { kind: "text"; types: readonly TextType[]; max: number }
  /** A composition object (composition.ts) by name. */
  | { kind: "object"; name: string }
  /** An element (elements.ts, or a text object where a context block takes one) of one of `types`. */
  | { kind: "element"; types: readonly string[] }
  | { kind: "list"; item: FieldSpec; max?: number; min?: number }
  /** Taken as given (a field whose inside the emulator does not check, such as rich text's). */
  | { kind: "any" }
);

export interface ObjectSpec {
  fields: Readonly<Record<string, FieldSpec>>;
  /** At least one of these fields must be given: "must define either `a` or `b`". */
  either?: readonly string[];
  /** Where a block or element may appear; everywhere when absent. */
  surfaces?: readonly Surface[];
  /** The field naming it for interactions (block_id, action_id): at most 255 characters, unique where the platform requires. */
  id?: "block_id" | "action_id";
}

/** Shorthands for the specs' most common fields. */
export const plainText = (max: number, required = false): FieldSpec => ({ kind: "text", types: ["plain_text"], max, required });
export const anyText = (max: number, required = false): FieldSpec => ({ kind: "text", types: ["plain_text", "mrkdwn"], max, required });
export const str = (max: number, required = false): FieldSpec => ({ kind: "string", max, required });
export const bool: FieldSpec = { kind: "boolean" };
export const num: FieldSpec = { kind: "number" };
export const obj = (name: string, required = false): FieldSpec => ({ kind: "object", name, required });
export const listOf = (item: FieldSpec, max: number, required = false): FieldSpec => ({ kind: "list", item, max, required });

/** Every id (block_id, action_id) is at most 255 characters. */
export const ID_MAX = 255;
/** A URL field (image_url, url) is at most 3000 characters. */
export const URL_MAX = 3000;
