"use client";

import type { ElementProps } from "./element-props";
import { PlainText } from "./text";
import { asObject, textOf } from "./shape";

const BASE =
  "inline-flex min-h-8 items-center justify-center rounded-md px-3 py-1 text-sm font-semibold shadow-xs transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600";
const STYLES: Record<string, string> = {
  primary: `${BASE} bg-emerald-700 text-white hover:bg-emerald-800`,
  danger: `${BASE} bg-rose-700 text-white hover:bg-rose-800`,
  default: `${BASE} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`,
};

/**
 * A button: its style (primary, danger or the default), its text; a click is its action. While that is in
 * flight it is busy: aria-disabled rather than disabled, so keyboard focus stays on it.
 */
export function BlockButton({ element, onChoice, busy }: ElementProps) {
  const style = typeof element.style === "string" && element.style in STYLES ? element.style : "default";
  const label = textOf(element.text);
  return (
    <button
      type="button"
      className={`${STYLES[style]} ${busy ? "cursor-progress opacity-70" : ""}`}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
      onClick={() => onChoice(typeof element.value === "string" ? element.value : null)}
    >
      <PlainText text={label} emoji={asObject(element.text)?.emoji !== false} />
      {busy && <span aria-hidden className="ml-1.5 inline-block h-3 w-3 animate-spin rounded-full border-2 border-current border-t-transparent" />}
    </button>
  );
}
