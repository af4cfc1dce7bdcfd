import { describe, expect, it } from "vitest";
import { actionFor, initialStateValues, stateValueFor, withStateValue } from "@/components/blocks/actions";

const option = (value: string) => ({ text: { type: "plain_text", text: `Option ${value}` }, value });
const NOW = 1_700_000_000_123;

describe("actionFor: a block_actions payload's actions[0]", () => {
  it("a button: its action_id, block_id, text, value and style", () => {
    const button = { type: "button", action_id: "approve", text: { type: "plain_text", text: "Approve" }, value: "req-1", style: "primary" };
    expect(actionFor(button, "b1", "req-1", NOW)).toEqual({
      type: "button",
      action_id: "approve",
      block_id: "b1",
      action_ts: "1700000000.123000",
      text: { type: "plain_text", text: "Approve" },
      value: "req-1",
      style: "primary",
    });
  });

  it("a static select echoes the option as the element defines it, from option_groups too", () => {
    const select = {
      type: "static_select",
      action_id: "pick",
      option_groups: [{ label: { type: "plain_text", text: "G" }, options: [option("a"), option("b")] }],
    };
    expect(actionFor(select, "b2", "b", NOW)).toMatchObject({ type: "static_select", action_id: "pick", block_id: "b2", selected_option: option("b") });
  });

  it("multi selects and checkboxes give selected_options; users, conversations and channels their ids", () => {
    const checkboxes = { type: "checkboxes", action_id: "c", options: [option("x"), option("y"), option("z")] };
    expect(actionFor(checkboxes, "b", ["x", "z"], NOW)).toMatchObject({ selected_options: [option("x"), option("z")] });
    expect(actionFor({ type: "users_select", action_id: "u" }, "b", "U1", NOW)).toMatchObject({ type: "users_select", selected_user: "U1" });
    expect(actionFor({ type: "multi_users_select", action_id: "u" }, "b", ["U1", "U2"], NOW)).toMatchObject({ selected_users: ["U1", "U2"] });
    expect(actionFor({ type: "conversations_select", action_id: "c" }, "b", "C1", NOW)).toMatchObject({ selected_conversation: "C1" });
    expect(actionFor({ type: "multi_channels_select", action_id: "c" }, "b", ["C1"], NOW)).toMatchObject({ selected_channels: ["C1"] });
  });

  it("an external select gives the app's option whole (its text too), one never offered made from its value", () => {
    const offered = { text: { type: "plain_text", text: "Platform team" }, value: "platform" };
    expect(actionFor({ type: "external_select", action_id: "p" }, "b", "platform", NOW, [offered])).toMatchObject({ selected_option: offered });
    expect(actionFor({ type: "multi_external_select", action_id: "p" }, "b", ["platform", "x"], NOW, [offered])).toMatchObject({
      selected_options: [offered, { text: { type: "plain_text", text: "x", emoji: true }, value: "x" }],
    });
  });

  it("pickers give the date, the time, and epoch seconds as a number; an overflow its option", () => {
    expect(actionFor({ type: "datepicker", action_id: "d" }, "b", "2026-11-29", NOW)).toMatchObject({ selected_date: "2026-11-29" });
    expect(actionFor({ type: "timepicker", action_id: "t" }, "b", "09:30", NOW)).toMatchObject({ selected_time: "09:30" });
    expect(actionFor({ type: "datetimepicker", action_id: "dt" }, "b", "1764400000", NOW)).toMatchObject({ selected_date_time: 1764400000 });
    expect(actionFor({ type: "overflow", action_id: "o", options: [option("edit")] }, "b", "edit", NOW)).toMatchObject({
      type: "overflow",
      selected_option: option("edit"),
    });
  });

  it("an external select's choice it has no option for is echoed with its value as text", () => {
    expect(actionFor({ type: "external_select", action_id: "e" }, "b", "v9", NOW)).toMatchObject({
      selected_option: { text: { type: "plain_text", text: "v9", emoji: true }, value: "v9" },
    });
  });
});

describe("state.values", () => {
  it("a text input's value, a cleared select's null", () => {
    expect(stateValueFor({ type: "plain_text_input", action_id: "t" }, "hello")).toEqual({ type: "plain_text_input", value: "hello" });
    expect(stateValueFor({ type: "static_select", options: [option("a")] }, null)).toEqual({ type: "static_select", selected_option: null });
    expect(stateValueFor({ type: "number_input" }, "4.5")).toEqual({ type: "number_input", value: "4.5" });
  });

  it("withStateValue sets one element's value and keeps the others", () => {
    const one = withStateValue({}, "title", "t", { type: "plain_text_input", value: "a" });
    const two = withStateValue(one, "title", "u", { type: "plain_text_input", value: "b" });
    const three = withStateValue(two, "title", "t", { type: "plain_text_input", value: "c" });
    expect(three).toEqual({ title: { t: { type: "plain_text_input", value: "c" }, u: { type: "plain_text_input", value: "b" } } });
    expect(one).toEqual({ title: { t: { type: "plain_text_input", value: "a" } } });
  });

  it("a view starts from its input blocks' initial values, blocks without an id by position", () => {
    const blocks = [
      { type: "header", text: { type: "plain_text", text: "H" } },
      {
        type: "input",
        block_id: "when",
        element: { type: "datepicker", action_id: "d", initial_date: "2026-01-02" },
        label: { type: "plain_text", text: "When" },
      },
      {
        type: "input",
        element: { type: "static_select", action_id: "s", options: [option("a")], initial_option: option("a") },
        label: { type: "plain_text", text: "S" },
      },
      { type: "input", block_id: "note", element: { type: "plain_text_input", action_id: "n" }, label: { type: "plain_text", text: "N" } },
    ];
    expect(initialStateValues(blocks)).toEqual({
      when: { d: { type: "datepicker", selected_date: "2026-01-02" } },
      "block-2": { s: { type: "static_select", selected_option: option("a") } },
      note: { n: { type: "plain_text_input", value: null } },
    });
  });
});
