"use client";

import { useRef, type FocusEvent, type MouseEvent } from "react";

/**
 * A field that opens holding a value (a default, the method last chosen) selects it when it gets focus, so
 * typing replaces it instead of appending to it. A click would put the caret back where it landed on mouseup:
 * that one mouseup is swallowed. `enabled` false leaves the field as any other (a value the person typed).
 */
export function useSelectOnFocus(enabled = true) {
  const clicking = useRef(false);
  return {
    onMouseDown(e: MouseEvent<HTMLInputElement>) {
      clicking.current = enabled && document.activeElement !== e.currentTarget;
    },
    onFocus(e: FocusEvent<HTMLInputElement>) {
      if (enabled) e.currentTarget.select();
    },
    onMouseUp(e: MouseEvent<HTMLInputElement>) {
      if (!clicking.current) return;
      clicking.current = false;
      e.preventDefault();
    },
  };
}
