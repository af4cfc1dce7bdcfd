"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import type { MemberViewWire } from "@/lib/emulator-admin/universal/schemas";
import { BUTTON, INPUT } from "@/components/ui/primitives";
import { MessageBlocks, type BlockAction } from "./message-blocks";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const textOf = (value: unknown): string => (isObject(value) && typeof value.text === "string" ? value.text : "");

/** What the member entered: block id → action id → value, as POST /admin/act/submit takes it. */
export type ViewValues = Record<string, Record<string, string | string[]>>;

function InputBlock({
  block,
  error,
  values,
  setValue,
}: {
  block: Json;
  error?: string;
  values: ViewValues;
  setValue: (blockId: string, actionId: string, value: string) => void;
}) {
  const blockId = String(block.block_id ?? "");
  const element = isObject(block.element) ? block.element : {};
  const actionId = String(element.action_id ?? "");
  const id = `input-${blockId}`;
  const current = values[blockId]?.[actionId];
  const value = typeof current === "string" ? current : "";
  const described = [error ? `${id}-error` : "", textOf(block.hint) ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": described,
    className: `${INPUT} ${error ? "border-rose-500" : ""}`,
  };
  let control;
  if (element.type === "static_select" && Array.isArray(element.options)) {
    control = (
      <select {...common} value={value} onChange={(e) => setValue(blockId, actionId, e.target.value)}>
        <option value="">{textOf(element.placeholder) || "Choose…"}</option>
        {element.options.filter(isObject).map((option) => (
          <option key={String(option.value)} value={String(option.value)}>
            {textOf(option.text)}
          </option>
        ))}
      </select>
    );
  } else if (element.multiline === true) {
    control = (
      <textarea {...common} rows={3} value={value} placeholder={textOf(element.placeholder)} onChange={(e) => setValue(blockId, actionId, e.target.value)} />
    );
  } else {
    // A plain text input, and for now any other input element (a date as YYYY-MM-DD, a time as HH:mm, a user id).
    control = (
      <input {...common} type="text" value={value} placeholder={textOf(element.placeholder)} onChange={(e) => setValue(blockId, actionId, e.target.value)} />
    );
  }
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {textOf(block.label)}
        {block.optional === true && <span className="ml-1 font-normal text-slate-500">(optional)</span>}
      </label>
      {control}
      {textOf(block.hint) && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {textOf(block.hint)}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-rose-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The modal on top of the member's stack, as a dialog: its blocks (inputs as fields, the rest through the
 * placeholder renderer), the app's errors under their fields, Submit and Close. What the member typed stays
 * while the app answers; a new view (update, push) starts from what the app set.
 */
export function ModalDialog({
  view,
  depth,
  busy,
  onSubmit,
  onClose,
  onAction,
}: {
  view: MemberViewWire;
  depth: number;
  busy: boolean;
  onSubmit: (values: ViewValues) => void;
  onClose: () => void;
  onAction: (action: BlockAction) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [values, setValues] = useState<ViewValues>({});
  const [forView, setForView] = useState(view.id + String(view.hash));
  // A new view (another id, or the same one updated): what was typed for the old one goes.
  if (forView !== view.id + String(view.hash)) {
    setForView(view.id + String(view.hash));
    setValues({});
  }
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const blocks = view.blocks.filter(isObject);
  const errors = view.errors ?? {};
  const setValue = (blockId: string, actionId: string, value: string) => setValues((v) => ({ ...v, [blockId]: { ...v[blockId], [actionId]: value } }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(values);
  };
  const title = textOf(view.title) || "Modal";
  return (
    <dialog
      ref={ref}
      aria-labelledby="workspace-modal-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className="m-auto w-[min(34rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      <form onSubmit={submit} className="flex max-h-[85vh] flex-col">
        <header className="flex items-center justify-between gap-2 border-b border-slate-100 px-4 py-3">
          <h2 id="workspace-modal-title" className="text-base font-semibold">
            {title}
          </h2>
          {depth > 1 && <span className="text-xs text-slate-500">view {depth} of the stack</span>}
        </header>
        <div className="space-y-4 overflow-y-auto px-4 py-3">
          {blocks.map((block, i) =>
            block.type === "input" ? (
              <InputBlock key={String(block.block_id ?? i)} block={block} error={errors[String(block.block_id ?? "")]} values={values} setValue={setValue} />
            ) : (
              <MessageBlocks key={String(block.block_id ?? i)} blocks={[block]} onAction={onAction} disabled={busy} />
            ),
          )}
        </div>
        <footer className="flex justify-end gap-2 border-t border-slate-100 px-4 py-3">
          <button type="button" className={BUTTON.secondary} onClick={onClose} disabled={busy}>
            {textOf(view.close) || "Cancel"}
          </button>
          {view.submit !== undefined && view.submit !== null && (
            <button type="submit" className={BUTTON.primary} disabled={busy}>
              {textOf(view.submit) || "Submit"}
            </button>
          )}
        </footer>
      </form>
    </dialog>
  );
}
