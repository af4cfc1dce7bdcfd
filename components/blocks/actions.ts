/**
 * What the platform makes of a member's choice in an element: the entry of a block_actions payload's
 * `actions` (https://docs.slack.dev/reference/interaction-payloads/block_actions-payload) and the value a
 * view's `state.values[block_id][action_id]` holds. The renderer calls these with a `Choice`, the member's
 * choice as the emulator's admin surface takes it (`POST /admin/act/click`'s `value`, `/admin/act/submit`'s
 * `values`): an option's value, a list of them, an id, a date, a time, epoch seconds, a text.
 */
import { asArray, asObject, asString, blockIdOf, optionsOf, type Json } from "./shape";

export type Choice = string | string[] | null;

/** One element's entry in `state.values`: its type and the field its kind of value goes in. */
export type StateValue = { type: string } & Json;
export type StateValues = Record<string, Record<string, StateValue>>;

/** An entry of a block_actions payload's `actions`. */
export type BlockAction = StateValue & { action_id: string; block_id: string; action_ts: string };

/** What a control reports: the payload's action, and the choice to send the emulator to act it out. */
export interface ActionEvent {
  action: BlockAction;
  choice: Choice;
}

const SINGLE_OPTION = new Set(["static_select", "external_select", "overflow", "radio_buttons"]);
const MANY_OPTIONS = new Set(["multi_static_select", "multi_external_select", "checkboxes"]);
const ID_FIELD: Record<string, string> = {
  users_select: "selected_user",
  multi_users_select: "selected_users",
  conversations_select: "selected_conversation",
  multi_conversations_select: "selected_conversations",
  channels_select: "selected_channel",
  multi_channels_select: "selected_channels",
  datepicker: "selected_date",
  timepicker: "selected_time",
};
const TEXT_INPUTS = new Set(["plain_text_input", "number_input", "email_text_input", "url_text_input"]);

const list = (choice: Choice): string[] => (choice === null ? [] : Array.isArray(choice) ? choice : [choice]);
const single = (choice: Choice): string | null => (Array.isArray(choice) ? (choice[0] ?? null) : choice);

/**
 * The option as the element defines it (the platform echoes it back whole); an external select's as the app
 * offered it (`known`), else made up from its value.
 */
function optionFor(element: Json, value: string, known: readonly Json[] = []): Json {
  const option = [...optionsOf(element), ...known].find((o) => o.value === value);
  if (option) return option;
  const initial = [element.initial_option, ...(Array.isArray(element.initial_options) ? element.initial_options : [])]
    .map(asObject)
    .find((o) => o?.value === value);
  return initial ?? { text: { type: "plain_text", text: value, emoji: true }, value };
}

/** The element's value in `state.values` once the member made `choice` (`known`: options the app offered for it). */
export function stateValueFor(element: Json, choice: Choice, known?: readonly Json[]): StateValue {
  const type = asString(element.type) ?? "unknown";
  if (SINGLE_OPTION.has(type)) {
    const value = single(choice);
    return { type, selected_option: value === null ? null : optionFor(element, value, known) };
  }
  if (MANY_OPTIONS.has(type)) return { type, selected_options: list(choice).map((v) => optionFor(element, v, known)) };
  const field = ID_FIELD[type];
  if (field) return { type, [field]: type.startsWith("multi_") ? list(choice) : single(choice) };
  if (type === "datetimepicker") {
    const value = single(choice);
    return { type, selected_date_time: value === null || value === "" ? null : Number(value) };
  }
  if (TEXT_INPUTS.has(type)) return { type, value: single(choice) };
  return { type, value: single(choice) };
}

/** The block_actions entry for a choice in the element (a button's is its own value, text and style). */
export function actionFor(element: Json, blockId: string, choice: Choice, now: number = Date.now(), known?: readonly Json[]): BlockAction {
  const actionId = asString(element.action_id) ?? "";
  const base = { action_id: actionId, block_id: blockId, action_ts: (now / 1000).toFixed(6) };
  if (element.type === "button") {
    return {
      type: "button",
      ...base,
      text: element.text ?? { type: "plain_text", text: "", emoji: true },
      ...(typeof element.value === "string" ? { value: element.value } : {}),
      ...(typeof element.style === "string" ? { style: element.style } : {}),
    };
  }
  return { ...stateValueFor(element, choice, known), ...base };
}

/** `state.values` with one element's value set (the reducer a view's inputs keep their state with). */
export function withStateValue(values: StateValues, blockId: string, actionId: string, value: StateValue): StateValues {
  return { ...values, [blockId]: { ...values[blockId], [actionId]: value } };
}

const INITIAL_FIELD: Record<string, string> = {
  users_select: "initial_user",
  multi_users_select: "initial_users",
  conversations_select: "initial_conversation",
  multi_conversations_select: "initial_conversations",
  channels_select: "initial_channel",
  multi_channels_select: "initial_channels",
  datepicker: "initial_date",
  timepicker: "initial_time",
  datetimepicker: "initial_date_time",
};

/** The choice an element starts with, from its `initial_*` field. */
export function initialChoice(element: Json): Choice {
  const type = asString(element.type) ?? "";
  if (SINGLE_OPTION.has(type)) return asString(asObject(element.initial_option)?.value) ?? null;
  if (MANY_OPTIONS.has(type)) return (Array.isArray(element.initial_options) ? element.initial_options : []).flatMap((o) => asString(asObject(o)?.value) ?? []);
  const initial = element[INITIAL_FIELD[type] ?? "initial_value"];
  if (Array.isArray(initial)) return initial.filter((v): v is string => typeof v === "string");
  return typeof initial === "string" || typeof initial === "number" ? String(initial) : null;
}

/** A view's `state.values` before the member types anything: each input block's element with its initial choice. */
export function initialStateValues(blocks: unknown): StateValues {
  let values: StateValues = {};
  asArray(blocks).forEach((value, index) => {
    const block = asObject(value);
    const element = asObject(block?.element);
    if (!block || block.type !== "input" || !element) return;
    values = withStateValue(values, blockIdOf(block, index), asString(element.action_id) ?? "", stateValueFor(element, initialChoice(element)));
  });
  return values;
}
