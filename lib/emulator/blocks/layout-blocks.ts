/**
 * Block Kit's blocks (https://docs.slack.dev/reference/block-kit/blocks), by type: their fields, limits and
 * the surfaces that show them (a file, markdown or table block only in messages).
 */
import { ACCESSORY_ELEMENTS, ACTIONS_ELEMENTS, CONTEXT_ELEMENTS, INPUT_ELEMENTS } from "./elements";
import { anyText, bool, ID_MAX, listOf, obj, plainText, str, URL_MAX, type ObjectSpec } from "./schema";

/** Every block may name itself. */
const block = (fields: ObjectSpec["fields"], rest: Partial<ObjectSpec> = {}): ObjectSpec => ({
  fields: { block_id: str(ID_MAX), ...fields },
  id: "block_id",
  ...rest,
});

const RICH_TEXT_PARTS = ["rich_text_section", "rich_text_list", "rich_text_preformatted", "rich_text_quote"];

export const BLOCKS: Readonly<Record<string, ObjectSpec>> = {
  section: block(
    {
      text: anyText(3000),
      fields: listOf(anyText(2000), 10),
      accessory: { kind: "element", types: ACCESSORY_ELEMENTS },
      expand: bool,
    },
    { either: ["text", "fields"] },
  ),
  actions: block({ elements: { kind: "list", item: { kind: "element", types: ACTIONS_ELEMENTS }, max: 25, min: 1, required: true } }),
  context: block({ elements: { kind: "list", item: { kind: "element", types: CONTEXT_ELEMENTS }, max: 10, min: 1, required: true } }),
  divider: block({}),
  header: block({ text: plainText(150, true) }),
  image: block(
    { image_url: str(URL_MAX), slack_file: obj("slack_file"), alt_text: str(2000, true), title: plainText(2000) },
    { either: ["image_url", "slack_file"] },
  ),
  input: block({
    label: plainText(2000, true),
    element: { kind: "element", types: INPUT_ELEMENTS, required: true },
    hint: plainText(2000),
    optional: bool,
    dispatch_action: bool,
  }),
  rich_text: block({ elements: { kind: "list", item: { kind: "element", types: RICH_TEXT_PARTS }, required: true } }),
  video: block({
    alt_text: str(2000, true),
    title: plainText(200, true),
    title_url: str(URL_MAX),
    thumbnail_url: str(URL_MAX, true),
    video_url: str(URL_MAX, true),
    author_name: str(50),
    description: plainText(200),
    provider_icon_url: str(URL_MAX),
    provider_name: str(50),
  }),
  file: block({ external_id: str(255, true), source: { kind: "string", oneOf: ["remote"], required: true } }, { surfaces: ["message"] }),
  markdown: block({ text: { kind: "string", max: 12_000, nonEmpty: true, required: true } }, { surfaces: ["message"] }),
  table: block(
    { rows: { kind: "list", item: { kind: "any" }, max: 100, min: 1, required: true }, column_settings: { kind: "any" } },
    { surfaces: ["message"] },
  ),
};

/** The parts of a rich_text block: their insides are taken as given. */
export const RICH_TEXT: Readonly<Record<string, ObjectSpec>> = Object.fromEntries(
  RICH_TEXT_PARTS.map((type) => [type, { fields: { elements: { kind: "list", item: { kind: "any" }, required: true } } } satisfies ObjectSpec]),
);

/** The most blocks a surface holds. */
export const MAX_BLOCKS: Readonly<Record<"message" | "modal" | "home", number>> = { message: 50, modal: 100, home: 100 };
