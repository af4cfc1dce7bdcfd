import { describe, expect, it } from "vitest";
import { actionFor, initialStateValues, stateValueFor, withStateValue, type Choice, type StateValues } from "@/components/blocks/actions";
import { clickOf, submittedValues, suggestionOf, suggestOf } from "@/components/workspace/block-acts";

const option = (value: string) => ({ text: { type: "plain_text", text: `Option ${value}` }, value });
const options = [option("a"), option("b")];

/** Each input element with the choice a member makes in it, as the emulator's /admin/act/submit takes it back. */
const CHOICES: Array<[Record<string, unknown>, Choice]> = [
  [{ type: "static_select", options }, "b"],
  [{ type: "radio_buttons", options }, "a"],
  [{ type: "external_select" }, "billing"],
  [{ type: "multi_static_select", options }, ["a", "b"]],
  [{ type: "checkboxes", options }, ["b"]],
  [{ type: "users_select" }, "U0123ABCD"],
  [{ type: "multi_users_select" }, ["U0123ABCD", "U0456EFGH"]],
  [{ type: "conversations_select" }, "C0123ABCD"],
  [{ type: "multi_channels_select" }, ["C0123ABCD"]],
  [{ type: "datepicker" }, "2026-12-24"],
  [{ type: "timepicker" }, "09:30"],
  [{ type: "datetimepicker" }, "1798099200"],
  [{ type: "plain_text_input" }, "Broken login"],
  [{ type: "number_input" }, "42"],
];

describe("submittedValues: a view's state.values as the submit act's values", () => {
  it.each(CHOICES)("gives back the member's choice in a %o", (element, choice) => {
    const values = withStateValue({}, "b1", "x", stateValueFor({ ...element, action_id: "x" }, choice));
    expect(submittedValues(values)).toEqual({ b1: { x: choice } });
  });

  it("leaves out what the member left empty, which the emulator would refuse as a choice", () => {
    const blocks = [
      { type: "input", block_id: "title", element: { type: "plain_text_input", action_id: "t" } },
      { type: "input", block_id: "pick", element: { type: "static_select", action_id: "p", options } },
      { type: "input", block_id: "due", element: { type: "datepicker", action_id: "d", initial_date: "2026-01-02" } },
    ];
    const values: StateValues = withStateValue(initialStateValues(blocks), "title", "t", stateValueFor({ type: "plain_text_input" }, ""));
    expect(submittedValues(values)).toEqual({ due: { d: "2026-01-02" } });
  });
});

describe("clickOf: a control's action as the click act's body", () => {
  const button = { type: "button", action_id: "close", text: { type: "plain_text", text: "Close" }, value: "t1" };

  it("names the block the app gave an id, and sends the choice", () => {
    const select = { type: "static_select", action_id: "pick", options };
    const blocks = [{ type: "actions", block_id: "acts", elements: [select] }];
    expect(clickOf({ action: actionFor(select, "acts", "b"), choice: "b" }, blocks)).toEqual({ action_id: "pick", block_id: "acts", value: "b" });
  });

  it("sends no block id for a block the app gave none (the renderer's made-up one is unknown to the emulator), and no value for none", () => {
    const blocks = [{ type: "actions", elements: [button] }];
    expect(clickOf({ action: actionFor(button, "block-0", null), choice: null }, blocks)).toEqual({ action_id: "close" });
  });
});

describe("suggestOf and suggestionOf: an external select's question to the app and its answer", () => {
  it("names the block only where the app gave it an id", () => {
    const blocks = [{ type: "actions", block_id: "acts", elements: [] }];
    expect(suggestOf({ action_id: "p", block_id: "acts" }, blocks)).toEqual({ action_id: "p", block_id: "acts" });
    expect(suggestOf({ action_id: "p", block_id: "block-3" }, blocks)).toEqual({ action_id: "p" });
  });

  it("gives the app's options or option groups, and says why there are none as the platform's client does", () => {
    const options = [option("a")];
    expect(suggestionOf({ outcome: "options", result: { options } })).toEqual({ options });
    const option_groups = [{ label: { type: "plain_text", text: "G" }, options }];
    expect(suggestionOf({ outcome: "options", result: { option_groups } })).toEqual({ option_groups });
    expect(suggestionOf({ outcome: "operation_timeout", result: null })).toEqual({ error: "dispatch_failed: the app did not answer within 3 seconds." });
    expect(suggestionOf({ outcome: "http_service_error", status: 500 })).toEqual({
      error: "dispatch_failed: the app's request URL answered with an HTTP error (HTTP 500).",
    });
    expect(suggestionOf({ outcome: "invalid_answer" })).toEqual({ error: "The app answered something the platform does not read." });
    expect(suggestionOf({ outcome: "something_new" })).toEqual({ error: "the app answered something_new." });
  });
});
