"use client";

import { useId } from "react";
import { useBlockHandlers } from "./block-context";
import { Element } from "./element";
import { asObject, asObjects, textOf, type Json } from "./shape";
import { PlainText, TextObject } from "./text";

/** actions: its elements in a row that wraps. */
export function ActionsBlock({ block, blockId }: { block: Json; blockId: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      {asObjects(block.elements).map((element, i) => (
        <Element key={i} element={element} placement={{ blockId }} />
      ))}
    </div>
  );
}

/** input: a label (with "(optional)"), the element, a hint, and the error the app answered for this block. */
export function InputBlock({ block, blockId }: { block: Json; blockId: string }) {
  const ids = useId();
  const error = useBlockHandlers().errors?.[blockId];
  const element = asObject(block.element);
  const labelId = `${ids}-label`;
  const controlId = `${ids}-control`;
  const errorId = `${ids}-error`;
  const label = asObject(block.label);
  return (
    <div className="space-y-1">
      <label id={labelId} htmlFor={controlId} className="block text-sm font-semibold text-slate-900">
        <PlainText text={textOf(label)} emoji={label?.emoji !== false} />
        {block.optional === true && <span className="font-normal text-slate-600"> (optional)</span>}
      </label>
      {element ? (
        <Element
          element={element}
          placement={{ blockId, input: { controlId, labelId, dispatchAction: block.dispatch_action === true, ...(error ? { errorId } : {}) } }}
        />
      ) : (
        <p className="text-xs text-slate-600">This input block has no element.</p>
      )}
      {block.hint !== undefined && (
        <div className="text-xs text-slate-600">
          <TextObject value={block.hint} />
        </div>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-xs font-medium text-rose-700">
          {error}
        </p>
      )}
    </div>
  );
}
