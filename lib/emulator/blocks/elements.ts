/**
 * Block Kit's elements (https://docs.slack.dev/reference/block-kit/block-elements), by type, and which of
 * them each place takes: a section's accessory, an actions block, an input block, a context block.
 */
import { bool, ID_MAX, listOf, num, obj, plainText, str, URL_MAX, type FieldSpec, type ObjectSpec } from "./schema";

const actionId = str(ID_MAX);
const placeholder = plainText(150);
const confirm = obj("confirm");
const focusOnLoad = bool;

/** An element that can take an action_id, a confirm and the focus. */
function interactive(fields: Record<string, FieldSpec>, rest: Partial<ObjectSpec> = {}): ObjectSpec {
  return { fields: { action_id: actionId, ...fields }, id: "action_id", ...rest };
}

const options = listOf(obj("option"), 100);
const optionGroups = listOf(obj("option_group"), 100);
const select = (fields: Record<string, FieldSpec>) => interactive({ placeholder, confirm, focus_on_load: focusOnLoad, ...fields });
const multi = (fields: Record<string, FieldSpec>) => select({ max_selected_items: num, ...fields });
const textInput = (fields: Record<string, FieldSpec> = {}) =>
  interactive({ initial_value: { kind: "string" }, dispatch_action_config: obj("dispatch_action_config"), focus_on_load: focusOnLoad, placeholder, ...fields });

/** A text object where a context block takes one as an element. */
const textElement: ObjectSpec = { fields: { text: { kind: "string", max: 3000, nonEmpty: true, required: true }, emoji: bool, verbatim: bool } };

export const ELEMENTS: Readonly<Record<string, ObjectSpec>> = {
  button: interactive({
    text: plainText(75, true),
    url: str(URL_MAX),
    value: str(2000),
    style: { kind: "string", oneOf: ["primary", "danger"] },
    confirm,
    accessibility_label: str(75),
  }),
  checkboxes: interactive({ options: listOf(obj("option"), 10, true), initial_options: listOf(obj("option"), 10), confirm, focus_on_load: focusOnLoad }),
  datepicker: interactive({ initial_date: { kind: "string" }, confirm, focus_on_load: focusOnLoad, placeholder }),
  datetimepicker: interactive({ initial_date_time: num, confirm, focus_on_load: focusOnLoad }),
  email_text_input: textInput(),
  file_input: interactive({ filetypes: listOf({ kind: "string" }, 100), max_files: num }, { surfaces: ["modal"] }),
  image: { fields: { image_url: str(URL_MAX), slack_file: obj("slack_file"), alt_text: str(2000, true) }, either: ["image_url", "slack_file"] },
  static_select: select({ options, option_groups: optionGroups, initial_option: obj("option") }),
  external_select: select({ initial_option: obj("option"), min_query_length: num }),
  users_select: select({ initial_user: { kind: "string" } }),
  conversations_select: select({
    initial_conversation: { kind: "string" },
    default_to_current_conversation: bool,
    response_url_enabled: bool,
    filter: obj("conversation_filter"),
  }),
  channels_select: select({ initial_channel: { kind: "string" }, response_url_enabled: bool }),
  multi_static_select: multi({ options, option_groups: optionGroups, initial_options: options }),
  multi_external_select: multi({ initial_options: options, min_query_length: num }),
  multi_users_select: multi({ initial_users: listOf({ kind: "string" }, 100) }),
  multi_conversations_select: multi({
    initial_conversations: listOf({ kind: "string" }, 100),
    default_to_current_conversation: bool,
    filter: obj("conversation_filter"),
  }),
  multi_channels_select: multi({ initial_channels: listOf({ kind: "string" }, 100) }),
  number_input: textInput({ is_decimal_allowed: { kind: "boolean", required: true }, min_value: { kind: "string" }, max_value: { kind: "string" } }),
  overflow: interactive({ options: listOf(obj("option"), 5, true), confirm }),
  plain_text_input: textInput({ multiline: bool, min_length: num, max_length: num }),
  radio_buttons: interactive({ options: listOf(obj("option"), 10, true), initial_option: obj("option"), confirm, focus_on_load: focusOnLoad }),
  rich_text_input: textInput({ initial_value: { kind: "any" } }),
  timepicker: interactive({ initial_time: { kind: "string" }, confirm, focus_on_load: focusOnLoad, placeholder, timezone: { kind: "string" } }),
  url_text_input: textInput(),
  workflow_button: interactive({
    text: plainText(75, true),
    workflow: obj("workflow", true),
    style: { kind: "string", oneOf: ["primary", "danger"] },
    accessibility_label: str(75),
  }),
  plain_text: textElement,
  mrkdwn: textElement,
};

/** Which elements each place takes (the block reference's "Compatible elements"). */
const SELECTS = ["static_select", "external_select", "users_select", "conversations_select", "channels_select"];
const MULTI_SELECTS = SELECTS.map((s) => `multi_${s}`);
const PICKERS = ["datepicker", "timepicker", "datetimepicker"];

export const ACCESSORY_ELEMENTS = [
  "button",
  "checkboxes",
  "image",
  "overflow",
  "radio_buttons",
  "workflow_button",
  "datepicker",
  "timepicker",
  ...SELECTS,
  ...MULTI_SELECTS,
];
export const ACTIONS_ELEMENTS = [
  "button",
  "checkboxes",
  "overflow",
  "radio_buttons",
  "workflow_button",
  "rich_text_input",
  ...PICKERS,
  ...SELECTS,
  ...MULTI_SELECTS,
];
export const INPUT_ELEMENTS = [
  "plain_text_input",
  "email_text_input",
  "url_text_input",
  "number_input",
  "rich_text_input",
  "file_input",
  "checkboxes",
  "radio_buttons",
  ...PICKERS,
  ...SELECTS,
  ...MULTI_SELECTS,
];
export const CONTEXT_ELEMENTS = ["image", "plain_text", "mrkdwn"];
