"use client";

import { useId, useState } from "react";
import type { ElementProps } from "./element-props";
import { safeHref } from "./safe-url";
import { asObjects, asString, textOf } from "./shape";
import { PlainText } from "./text";

const ITEM = "block w-full px-3 py-1.5 text-left text-sm text-slate-800 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-none";

/** An overflow menu: a ⋯ button that opens its options; picking one is its action (an option with a URL opens it too). */
export function OverflowMenu({ element, naming, onChoice, busy }: ElementProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const options = asObjects(element.options);
  return (
    <div className="relative inline-block">
      <button
        type="button"
        aria-label={naming["aria-label"] ?? "More actions"}
        aria-expanded={open}
        aria-controls={menuId}
        aria-disabled={busy || undefined}
        aria-busy={busy || undefined}
        onClick={() => !busy && setOpen(!open)}
        className={`${busy ? "cursor-progress opacity-70 " : ""}inline-flex h-8 w-8 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-sky-600`}
      >
        <span aria-hidden>⋯</span>
      </button>
      {open && (
        <ul id={menuId} className="absolute right-0 z-10 mt-1 min-w-40 rounded-md border border-slate-200 bg-white py-1 shadow-lg">
          {options.map((option, i) => {
            const value = asString(option.value) ?? "";
            const href = safeHref(option.url);
            const pick = () => {
              setOpen(false);
              onChoice(value);
            };
            const label = <PlainText text={textOf(option.text)} />;
            return (
              <li key={i}>
                {href ? (
                  <a href={href} target="_blank" rel="noopener noreferrer nofollow" className={ITEM} onClick={pick}>
                    {label}
                  </a>
                ) : (
                  <button type="button" className={ITEM} onClick={pick}>
                    {label}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
