import { INPUT } from "@/components/ui/primitives";

// A field the app's error is about (aria-invalid, set by its input block) is outlined as the error is coloured.
const BASE = `${INPUT.replace("w-full ", "")} aria-invalid:border-rose-600`;

/** A field fills an input block's width; in an actions block or as an accessory it sits in a row with others. */
export function fieldClass(inInput: boolean): string {
  return inInput ? `${BASE} w-full` : `${BASE} w-auto max-w-xs`;
}
