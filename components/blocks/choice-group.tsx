"use client";

import { useId } from "react";
import { initialChoice } from "./actions";
import type { ElementProps } from "./element-props";
import { asObjects, asString } from "./shape";
import { TextObject } from "./text";

/** Checkboxes or radio buttons: a group of native inputs, each option's text (mrkdwn allowed) and description. */
export function ChoiceGroup({ element, naming, onChoice }: ElementProps) {
  const name = useId();
  const radio = element.type === "radio_buttons";
  const initial = initialChoice(element);
  const initialValues = initial === null ? [] : Array.isArray(initial) ? initial : [initial];
  const { id, ...groupNaming } = naming;
  return (
    <div role={radio ? "radiogroup" : "group"} id={id} {...groupNaming} className="space-y-1.5">
      {asObjects(element.options).map((option, i) => {
        const value = asString(option.value) ?? "";
        return (
          <label key={i} className="flex items-start gap-2 text-sm">
            <input
              type={radio ? "radio" : "checkbox"}
              name={name}
              value={value}
              defaultChecked={initialValues.includes(value)}
              onChange={(e) => {
                const group = e.currentTarget.closest("[role=group],[role=radiogroup]");
                const checked = Array.from(group?.querySelectorAll<HTMLInputElement>("input:checked") ?? [], (input) => input.value);
                onChoice(radio ? (checked[0] ?? null) : checked);
              }}
              className="mt-1 accent-emerald-700"
            />
            <span>
              <TextObject value={option.text} />
              {option.description !== undefined && (
                <span className="block text-xs text-slate-600">
                  <TextObject value={option.description} />
                </span>
              )}
            </span>
          </label>
        );
      })}
    </div>
  );
}
