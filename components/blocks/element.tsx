"use client";

import { useRef, useState } from "react";
import { actionFor, stateValueFor, type Choice } from "./actions";
import type { Placement } from "./element-props";
import { useBlockHandlers } from "./block-context";
import { BlockButton } from "./button";
import { ChoiceGroup } from "./choice-group";
import { OverflowMenu } from "./overflow-menu";
import { DatePicker } from "./pickers";
import { SelectMenu, isSelectMenu } from "./select-menu";
import { asString, textOf, type Json } from "./shape";
import { TextInput } from "./text-input";
import { Unsupported } from "./unsupported";

/** The name a control has outside an input block, where nothing labels it. */
function looseName(element: Json): string {
  const placeholder = textOf(element.placeholder);
  if (placeholder) return placeholder;
  const type = asString(element.type) ?? "element";
  return type === "overflow" ? "More actions" : type.replaceAll("_", " ");
}

/**
 * One interactive element: it reports a choice as a state value (in a view) and, outside inputs, as an
 * action. While its action is in flight it is busy and takes no second one: a double click is one act, as
 * the platform's client sends one.
 */
export function Element({ element, placement }: { element: Json; placement: Placement }) {
  const handlers = useBlockHandlers();
  const { blockId, input } = placement;
  const type = asString(element.type) ?? "";
  const actionId = asString(element.action_id) ?? "";
  // The ref refuses the second click of a double click, which arrives before React draws the busy state.
  const inFlight = useRef(false);
  const [busy, setBusy] = useState(false);
  const onEdit = (choice: Choice, options?: Json[]) => handlers.onValue?.(blockId, actionId, stateValueFor(element, choice, options));
  const acts = !input || input.dispatchAction;
  const onChoice = (choice: Choice, options?: Json[]) => {
    if (inFlight.current) return;
    if (type !== "button" && type !== "overflow") onEdit(choice, options);
    if (!acts || !handlers.onAction) return;
    const pending = handlers.onAction({ action: actionFor(element, blockId, choice, Date.now(), options), choice });
    if (!(pending instanceof Promise)) return;
    inFlight.current = true;
    setBusy(true);
    void pending.finally(() => {
      inFlight.current = false;
      setBusy(false);
    });
  };
  // The app's error under an input block marks its control invalid and describes it, for a screen reader too.
  const invalid = input?.errorId ? { "aria-invalid": true as const, "aria-describedby": input.errorId } : {};
  const naming = input ? { id: input.controlId, "aria-labelledby": input.labelId, ...invalid } : { "aria-label": looseName(element) };
  const props = { element, naming, onChoice, onEdit, busy };
  if (type === "button") return <BlockButton {...props} />;
  if (type === "overflow") return <OverflowMenu {...props} />;
  if (isSelectMenu(type)) return <SelectMenu {...props} blockId={blockId} />;
  if (type === "checkboxes" || type === "radio_buttons") return <ChoiceGroup {...props} />;
  if (type === "datepicker" || type === "timepicker" || type === "datetimepicker") return <DatePicker {...props} />;
  if (type === "plain_text_input" || type === "number_input" || type === "email_text_input" || type === "url_text_input") {
    return <TextInput {...props} actsOnEnter={acts} />;
  }
  return <Unsupported what={`element: ${type || "(no type)"}`} />;
}
