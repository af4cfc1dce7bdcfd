"use client";

import { initialChoice } from "./actions";
import type { ElementProps } from "./element-props";
import { fieldClass } from "./field-style";

/** Epoch seconds as a datetime-local field's value, in the member's zone (what their client shows). */
function localDateTime(epochSeconds: string | null): string {
  const seconds = Number(epochSeconds);
  if (epochSeconds === null || !Number.isFinite(seconds)) return "";
  const d = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * Date, time and date-time pickers as the browser's own fields. The platform's values: `YYYY-MM-DD`, `HH:mm`,
 * and epoch seconds for a date-time (the browser's field gives local time, turned into seconds here).
 */
export function DatePicker({ element, naming, onChoice }: ElementProps) {
  const initial = initialChoice(element);
  const single = Array.isArray(initial) ? (initial[0] ?? null) : initial;
  if (element.type === "datetimepicker") {
    return (
      <input
        {...naming}
        type="datetime-local"
        defaultValue={localDateTime(single)}
        onChange={(e) => onChoice(e.target.value ? String(Math.floor(new Date(e.target.value).getTime() / 1000)) : null)}
        className={fieldClass(naming.id !== undefined)}
      />
    );
  }
  return (
    <input
      {...naming}
      type={element.type === "timepicker" ? "time" : "date"}
      defaultValue={single ?? ""}
      onChange={(e) => onChoice(e.target.value || null)}
      className={fieldClass(naming.id !== undefined)}
    />
  );
}
