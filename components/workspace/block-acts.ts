/**
 * What the Block Kit renderer reports, as the Workspace page's acts take it: a control's ActionEvent as the
 * body of a click (POST /api/workspace/act/click), a view's `state.values` as a submission's `values`
 * (block id → action id → choice, the shape /admin/act/submit reads).
 */
import type { ActionEvent, Choice, StateValue, StateValues } from "@/components/blocks/actions";
import type { SuggestAnswer } from "@/components/blocks/block-context";
import type { MemberActAnswerWire } from "@/lib/emulator-admin/universal/schemas";
import { failureOf } from "./delivery-failures";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** The fields of a click's body that name the element and the member's choice. */
export function clickOf(event: ActionEvent, blocks: readonly unknown[]): { action_id: string; block_id?: string; value?: string | string[] } {
  const { action, choice } = event;
  // The renderer names a block without a block_id by its place; the emulator knows it by no id, so send none.
  const known = blocks.some((b) => isObject(b) && b.block_id === action.block_id);
  return { action_id: action.action_id, ...(known ? { block_id: action.block_id } : {}), ...(choice === null ? {} : { value: choice }) };
}

const optionValue = (option: unknown): string | null => (isObject(option) && typeof option.value === "string" ? option.value : null);

/** The member's choice an element's `state.values` entry holds (null: nothing chosen or typed). */
function choiceOf(value: StateValue): Choice {
  if ("selected_option" in value) return optionValue(value.selected_option);
  if (Array.isArray(value.selected_options)) return value.selected_options.map(optionValue).filter((v): v is string => v !== null);
  if (typeof value.selected_date_time === "number") return String(value.selected_date_time);
  for (const [key, field] of Object.entries(value)) {
    if (key === "type" || !(key.startsWith("selected_") || key === "value")) continue;
    if (typeof field === "string") return field;
    if (Array.isArray(field)) return field.filter((v): v is string => typeof v === "string");
  }
  return null;
}

/** A view's `state.values` as a submission's values: what was left empty is not sent (the platform's null). */
export function submittedValues(values: StateValues): Record<string, Record<string, string | string[]>> {
  const out: Record<string, Record<string, string | string[]>> = {};
  for (const [blockId, actions] of Object.entries(values)) {
    for (const [actionId, value] of Object.entries(actions)) {
      const choice = choiceOf(value);
      if (choice === null || choice === "") continue;
      (out[blockId] ??= {})[actionId] = choice;
    }
  }
  return out;
}

/** The fields of a suggest act's body that name the external select (a block id only where the app gave one). */
export function suggestOf(element: { action_id: string; block_id: string }, blocks: readonly unknown[]): { action_id: string; block_id?: string } {
  const known = blocks.some((b) => isObject(b) && b.block_id === element.block_id);
  return { action_id: element.action_id, ...(known ? { block_id: element.block_id } : {}) };
}

/**
 * What the suggest act gave, as the select shows it: the app's options (or option groups), or why there are
 * none, as the platform's client says it (no answer in 3 s, an HTTP error and its status, no connection).
 */
export function suggestionOf(answer: MemberActAnswerWire): SuggestAnswer {
  const result = answer.result;
  if (isObject(result) && Array.isArray(result.options)) return { options: result.options.filter(isObject) };
  if (isObject(result) && Array.isArray(result.option_groups)) return { option_groups: result.option_groups.filter(isObject) };
  return { error: failureOf(answer) ?? `the app answered ${answer.outcome ?? "nothing"}.` };
}
