/**
 * The interactive elements of a message's or a view's blocks (buttons, selects, pickers, inputs, …), found by
 * their action id, and what a member's choice on one looks like in a payload: the entry of `actions` and of
 * `state.values`, with the fields the platform gives each element type (`value`, `selected_option(s)`,
 * `selected_user(s)`, `selected_conversation(s)`, `selected_channel(s)`, `selected_date`, `selected_time`,
 * `selected_date_time`). Not a Block Kit validator: it reads what the blocks hold, and refuses a choice the
 * element does not offer.
 */
import { WebApiError } from "../core/errors";

type Json = Record<string, unknown>;

export interface FoundElement {
  blockId: string;
  element: Json;
}

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Every interactive element of the blocks, in order: actions' elements, sections' accessories, inputs' elements. */
export function interactiveElements(blocks: unknown): FoundElement[] {
  if (!Array.isArray(blocks)) return [];
  return blocks.filter(isObject).flatMap((block) => {
    const blockId = typeof block.block_id === "string" ? block.block_id : "";
    const candidates = block.type === "actions" ? (Array.isArray(block.elements) ? block.elements : []) : [block.accessory, block.element];
    return candidates.filter((e): e is Json => isObject(e) && typeof e.action_id === "string").map((element) => ({ blockId, element }));
  });
}

/** The element with this action id (in this block, when given): 404 action_not_found otherwise. */
export function findElement(blocks: unknown, actionId: string, blockId?: string): FoundElement {
  const found = interactiveElements(blocks).find((e) => e.element.action_id === actionId && (blockId === undefined || e.blockId === blockId));
  if (!found) {
    const where = blockId === undefined ? "" : ` in block ${blockId}`;
    throw new WebApiError("action_not_found", { message: `No interactive element has action_id ${actionId}${where}.` }, { status: 404 });
  }
  return found;
}

function invalidChoice(message: string): WebApiError {
  return new WebApiError("invalid_choice", { message }, { status: 400 });
}

/** The element's options, option groups' options included. */
function optionsOf(element: Json): Json[] {
  const direct = Array.isArray(element.options) ? element.options.filter(isObject) : [];
  const grouped = Array.isArray(element.option_groups)
    ? element.option_groups.filter(isObject).flatMap((g) => (Array.isArray(g.options) ? g.options.filter(isObject) : []))
    : [];
  return [...direct, ...grouped];
}

function pickOption(element: Json, value: string): Json {
  const option = optionsOf(element).find((o) => o.value === value);
  if (!option) throw invalidChoice(`${String(element.action_id)} offers no option with the value ${value}.`);
  return option;
}

/**
 * An external select's option: its options come from the app, so the member's choice is taken as given, as
 * the app offered it (`offered`, its last block_suggestion answer to this member) or made from its value.
 */
const externalOption = (value: string, offered: readonly Json[]): Json =>
  offered.find((o) => o.value === value) ?? { text: { type: "plain_text", text: value, emoji: true }, value };

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function one(element: Json, value: string | string[] | undefined): string {
  const [first, ...rest] = list(value);
  if (first === undefined || rest.length > 0) throw invalidChoice(`${String(element.action_id)} (${String(element.type)}) takes one value.`);
  return first;
}

function checked(element: Json, value: string, pattern: RegExp, shape: string): string {
  if (!pattern.test(value)) throw invalidChoice(`${String(element.action_id)} takes ${shape}.`);
  return value;
}

/**
 * What the element holds once the member chose `value`: the fields of its `state.values` entry. `offered`:
 * the options the app last offered the member in this element, when it is an external select.
 */
export function choiceFields(element: Json, value: string | string[] | undefined, offered: readonly Json[] = []): Json {
  switch (element.type) {
    case "button":
      return {};
    case "static_select":
    case "radio_buttons":
    case "overflow":
      return { selected_option: pickOption(element, one(element, value)) };
    case "multi_static_select":
    case "checkboxes":
      return { selected_options: list(value).map((v) => pickOption(element, v)) };
    case "external_select":
      return { selected_option: externalOption(one(element, value), offered) };
    case "multi_external_select":
      return { selected_options: list(value).map((v) => externalOption(v, offered)) };
    case "users_select":
      return { selected_user: one(element, value) };
    case "multi_users_select":
      return { selected_users: list(value) };
    case "conversations_select":
      return { selected_conversation: one(element, value) };
    case "multi_conversations_select":
      return { selected_conversations: list(value) };
    case "channels_select":
      return { selected_channel: one(element, value) };
    case "multi_channels_select":
      return { selected_channels: list(value) };
    case "datepicker":
      return { selected_date: checked(element, one(element, value), /^\d{4}-\d{2}-\d{2}$/, "a date, YYYY-MM-DD") };
    case "timepicker":
      return { selected_time: checked(element, one(element, value), /^\d{2}:\d{2}$/, "a time, HH:mm") };
    case "datetimepicker":
      return { selected_date_time: Number(checked(element, one(element, value), /^\d+$/, "epoch seconds")) };
    case "plain_text_input":
    case "email_text_input":
    case "url_text_input":
    case "number_input":
      return { value: list(value).join("") };
    default:
      throw invalidChoice(`${String(element.action_id)} is a ${String(element.type)}, which the emulator cannot act on.`);
  }
}

/** The `state.values` entry of an element nobody has touched: its initial value, or nothing chosen. */
export function initialFields(element: Json): Json {
  switch (element.type) {
    case "button":
    case "overflow":
      return {};
    case "static_select":
    case "external_select":
    case "radio_buttons":
      return { selected_option: element.initial_option ?? null };
    case "multi_static_select":
    case "multi_external_select":
    case "checkboxes":
      return { selected_options: element.initial_options ?? [] };
    case "users_select":
      return { selected_user: element.initial_user ?? null };
    case "multi_users_select":
      return { selected_users: element.initial_users ?? [] };
    case "conversations_select":
      return { selected_conversation: element.initial_conversation ?? null };
    case "multi_conversations_select":
      return { selected_conversations: element.initial_conversations ?? [] };
    case "channels_select":
      return { selected_channel: element.initial_channel ?? null };
    case "multi_channels_select":
      return { selected_channels: element.initial_channels ?? [] };
    case "datepicker":
      return { selected_date: element.initial_date ?? null };
    case "timepicker":
      return { selected_time: element.initial_time ?? null };
    case "datetimepicker":
      return { selected_date_time: element.initial_date_time ?? null };
    default:
      return { value: element.initial_value ?? null };
  }
}

/** `state.values` of blocks: every stateful element's initial fields, then the choices made (`entered`). */
export function stateValues(blocks: unknown, entered: Record<string, Record<string, Json>>): Record<string, Record<string, Json>> {
  const values: Record<string, Record<string, Json>> = {};
  for (const { blockId, element } of interactiveElements(blocks)) {
    if (element.type === "button" || element.type === "overflow" || element.type === "workflow_button") continue;
    const actionId = element.action_id as string;
    const fields = entered[blockId]?.[actionId] ?? { type: element.type, ...initialFields(element) };
    (values[blockId] ??= {})[actionId] = fields;
  }
  return values;
}

/** The entry of a block_actions payload's `actions` for a choice on an element. */
export function actionOf(found: FoundElement, fields: Json, actionTs: string): Json {
  const { element, blockId } = found;
  const base: Json = { type: element.type, action_id: element.action_id, block_id: blockId };
  if (element.type === "button") {
    return {
      ...base,
      text: element.text,
      ...(element.value !== undefined ? { value: element.value } : {}),
      ...(element.style ? { style: element.style } : {}),
      action_ts: actionTs,
    };
  }
  return { ...base, ...fields, action_ts: actionTs };
}
