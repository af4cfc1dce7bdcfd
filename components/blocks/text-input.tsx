"use client";

import { initialChoice } from "./actions";
import type { ElementProps } from "./element-props";
import { fieldClass } from "./field-style";
import { textOf } from "./shape";

const TYPES: Record<string, string> = { number_input: "number", email_text_input: "email", url_text_input: "url", plain_text_input: "text" };

/**
 * plain_text_input (one line or multiline), number_input, email_text_input and url_text_input as native
 * fields. Each keystroke is the view's state; outside an input block or with dispatch_action, Enter is an action too, as the
 * platform's default `on_enter_pressed` trigger.
 */
export function TextInput({ element, naming, onChoice, onEdit, actsOnEnter }: ElementProps & { actsOnEnter: boolean }) {
  const initial = initialChoice(element);
  const common = {
    ...naming,
    defaultValue: typeof initial === "string" ? initial : "",
    placeholder: textOf(element.placeholder) || undefined,
    minLength: typeof element.min_length === "number" ? element.min_length : undefined,
    maxLength: typeof element.max_length === "number" ? element.max_length : undefined,
    className: fieldClass(naming.id !== undefined),
  };
  if (element.type === "plain_text_input" && element.multiline === true) {
    return <textarea {...common} rows={4} onChange={(e) => onEdit(e.target.value)} />;
  }
  return (
    <input
      {...common}
      type={TYPES[String(element.type)] ?? "text"}
      step={element.type === "number_input" ? (element.is_decimal_allowed === true ? "any" : 1) : undefined}
      min={typeof element.min_value === "string" ? element.min_value : undefined}
      max={typeof element.max_value === "string" ? element.max_value : undefined}
      onChange={(e) => onEdit(e.target.value)}
      onKeyDown={(e) => {
        if (actsOnEnter && e.key === "Enter") {
          e.preventDefault();
          onChoice(e.currentTarget.value);
        }
      }}
    />
  );
}
