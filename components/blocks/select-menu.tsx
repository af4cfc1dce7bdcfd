"use client";

import { initialChoice } from "./actions";
import { ComboSelect } from "./combo-select";
import type { ElementProps } from "./element-props";
import { fieldClass } from "./field-style";
import { comboKindOf } from "./select-options";
import { asObjects, asString, textOf, type Json } from "./shape";

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
 * A select menu. A static menu is a native <select> (a listbox when it takes several) of its options, grouped
 * by option_groups. Users, conversations, channels and external menus are comboboxes (combo-select.tsx): they
 * list the workspace's members and conversations, or ask the app, as the member types.
 */
export function SelectMenu(props: ElementProps & { blockId: string }) {
  const { element, naming, onChoice, busy } = props;
  const type = asString(element.type) ?? "";
  const kind = comboKindOf(type);
  if (kind !== null) return <ComboSelect {...props} kind={kind} />;
  const multi = type.startsWith("multi_");
  const initial = initialChoice(element);
  const initialValues = initial === null ? [] : Array.isArray(initial) ? initial : [initial];
  const groups = asObjects(element.option_groups);
  const entries = asObjects(element.options).flatMap((o) => entryOf(o) ?? []);
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
      disabled={busy}
      aria-busy={busy || undefined}
      size={multi ? Math.min(Math.max(entries.length, 2), 5) : undefined}
      defaultValue={multi ? initialValues : (initialValues[0] ?? "")}
      onChange={(e) => onChoice(multi ? Array.from(e.target.selectedOptions, (o) => o.value) : e.target.value || null)}
      className={`${fieldClass(naming.id !== undefined)} ${busy ? "cursor-progress opacity-70" : ""}`}
    >
      {!multi && <option value="">{placeholder}</option>}
      {groups.length > 0
        ? groups.map((g, i) => (
            <optgroup key={i} label={textOf(g.label)}>
              {options(asObjects(g.options).flatMap((o) => entryOf(o) ?? []))}
            </optgroup>
          ))
        : options(entries)}
    </select>
  );
}
