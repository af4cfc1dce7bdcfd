import { INPUT } from "@/components/ui/primitives";

const BASE = INPUT.replace("w-full ", "");

/** A field fills an input block's width; in an actions block or as an accessory it sits in a row with others. */
export function fieldClass(inInput: boolean): string {
  return inInput ? `${BASE} w-full` : `${BASE} w-auto max-w-xs`;
}
