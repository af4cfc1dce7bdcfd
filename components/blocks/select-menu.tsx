"use client";

import { initialChoice } from "./actions";
import { useBlockHandlers } from "./block-context";
import type { ElementProps } from "./element-props";
import { fieldClass } from "./field-style";
import { asObject, asObjects, asString, textOf, type Json } from "./shape";

const KINDS = new Set(["static", "external", "users", "conversations", "channels"]);

export function isSelectMenu(type: string): boolean {
  const match = /^(?:multi_)?(\w+)_select$/.exec(type);
  return match !== null && KINDS.has(match[1]!);
}

interface Entry {
  value: string;
  label: string;
}

const entryOf = (option: Json): Entry | null => {
  const value = asString(option.value);
  return value === undefined ? null : { value, label: textOf(option.text) || value };
};

/**
 * A select menu as a native <select> (a listbox when it takes several). Static menus list their options
 * (grouped by option_groups); users, conversations, channels and external menus list what the page knows
 * of them, here their initial choices, since their options come from the workspace or the app at run time.
 */
export function SelectMenu({ element, naming, onChoice }: ElementProps) {
  const handlers = useBlockHandlers();
  const type = asString(element.type) ?? "";
  const multi = type.startsWith("multi_");
  const initial = initialChoice(element);
  const initialValues = initial === null ? [] : Array.isArray(initial) ? initial : [initial];
  const groups = asObjects(element.option_groups);
  const entries: Entry[] = type.endsWith("static_select")
    ? asObjects(element.options).flatMap((o) => entryOf(o) ?? [])
    : type.endsWith("external_select")
      ? [asObject(element.initial_option), ...asObjects(element.initial_options)].flatMap((o) => (o ? (entryOf(o) ?? []) : []))
      : initialValues.map((id) => ({
          value: id,
          label: (type.includes("users") ? handlers.userName?.(id) : handlers.channelName?.(id)) ?? id,
        }));
  const placeholder = textOf(element.placeholder) || (multi ? "Select items" : "Select an item");
  const options = (list: Entry[]) =>
    list.map((e) => (
      <option key={e.value} value={e.value}>
        {e.label}
      </option>
    ));
  return (
    <select
      {...naming}
      multiple={multi}
      size={multi ? Math.min(Math.max(entries.length, 2), 5) : undefined}
      defaultValue={multi ? initialValues : (initialValues[0] ?? "")}
      onChange={(e) => onChoice(multi ? Array.from(e.target.selectedOptions, (o) => o.value) : e.target.value || null)}
      className={fieldClass(naming.id !== undefined)}
    >
      {!multi && <option value="">{placeholder}</option>}
      {groups.length > 0 && type.endsWith("static_select")
        ? groups.map((g, i) => (
            <optgroup key={i} label={textOf(g.label)}>
              {options(asObjects(g.options).flatMap((o) => entryOf(o) ?? []))}
            </optgroup>
          ))
        : options(entries)}
    </select>
  );
}
