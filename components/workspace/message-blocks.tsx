"use client";

/**
 * A placeholder for the Block Kit renderer (components/blocks/, written beside this page): a message's or a
 * view's `text`, then its blocks as a compact list of their texts, with their buttons as real buttons and
 * their static selects as selects, wired to `onAction` (a click, POST /api/workspace/act/click). The
 * coordinator swaps this file for the renderer once both have landed.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

export interface BlockAction {
  action_id: string;
  block_id?: string;
  value?: string;
}

/** The text of a text object, of a rich_text's elements, or of a plain string. */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (!isObject(value)) return "";
  if (typeof value.text === "string") return value.text;
  if (isObject(value.text)) return textOf(value.text);
  if (Array.isArray(value.elements)) return value.elements.map(textOf).join("");
  return "";
}

function Element({ element, blockId, onAction, disabled }: { element: Json; blockId?: string; onAction?: (action: BlockAction) => void; disabled?: boolean }) {
  const actionId = typeof element.action_id === "string" ? element.action_id : "";
  if (element.type === "button") {
    const tone =
      element.style === "danger"
        ? "border-rose-300 text-rose-700 hover:bg-rose-50"
        : element.style === "primary"
          ? "border-emerald-600 bg-emerald-700 text-white hover:bg-emerald-800"
          : "border-slate-300 text-slate-800 hover:bg-slate-50";
    return (
      <button
        type="button"
        disabled={disabled || !onAction || actionId === ""}
        onClick={() => onAction?.({ action_id: actionId, block_id: blockId, ...(typeof element.value === "string" ? { value: element.value } : {}) })}
        className={`rounded-md border px-2.5 py-1 text-sm font-medium disabled:opacity-50 ${tone}`}
      >
        {textOf(element.text) || actionId}
      </button>
    );
  }
  if (element.type === "static_select" && Array.isArray(element.options)) {
    const label = textOf(element.placeholder) || "Choose…";
    return (
      <select
        aria-label={label}
        disabled={disabled || !onAction}
        defaultValue=""
        onChange={(e) => onAction?.({ action_id: actionId, block_id: blockId, value: e.target.value })}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
      >
        <option value="" disabled>
          {label}
        </option>
        {element.options.filter(isObject).map((option) => (
          <option key={String(option.value)} value={String(option.value)}>
            {textOf(option.text)}
          </option>
        ))}
      </select>
    );
  }
  if (element.type === "image") return null;
  const text = textOf(element);
  return text ? <span className="text-sm text-slate-700">{text}</span> : <span className="text-xs text-slate-500">[{String(element.type)}]</span>;
}

function Block({ block, onAction, disabled }: { block: Json; onAction?: (action: BlockAction) => void; disabled?: boolean }) {
  const blockId = typeof block.block_id === "string" ? block.block_id : undefined;
  if (block.type === "divider") return <hr className="border-slate-200" />;
  if (block.type === "header") return <p className="font-semibold text-slate-900">{textOf(block.text)}</p>;
  if (block.type === "actions" || block.type === "context") {
    const elements = Array.isArray(block.elements) ? block.elements.filter(isObject) : [];
    return (
      <div className="flex flex-wrap items-center gap-2">
        {elements.map((element, i) => (
          <Element key={i} element={element} blockId={blockId} onAction={onAction} disabled={disabled} />
        ))}
      </div>
    );
  }
  if (block.type === "section") {
    const fields = Array.isArray(block.fields) ? block.fields.map(textOf) : [];
    return (
      <div className="space-y-1">
        {textOf(block.text) && <p className="whitespace-pre-wrap text-sm text-slate-800">{textOf(block.text)}</p>}
        {fields.length > 0 && (
          <ul className="grid grid-cols-2 gap-x-4 text-sm text-slate-700">
            {fields.map((f, i) => (
              <li key={i} className="whitespace-pre-wrap">
                {f}
              </li>
            ))}
          </ul>
        )}
        {isObject(block.accessory) && <Element element={block.accessory} blockId={blockId} onAction={onAction} disabled={disabled} />}
      </div>
    );
  }
  const text = textOf(block);
  return text ? <p className="whitespace-pre-wrap text-sm text-slate-800">{text}</p> : <p className="text-xs text-slate-500">[{String(block.type)} block]</p>;
}

export function MessageBlocks({
  text,
  blocks,
  onAction,
  disabled,
}: {
  text?: string;
  blocks?: unknown[];
  onAction?: (action: BlockAction) => void;
  disabled?: boolean;
}) {
  const list = (blocks ?? []).filter(isObject);
  return (
    <div className="space-y-1.5">
      {/* With blocks, `text` is the notification's fallback: a client shows the blocks. */}
      {list.length === 0 && text && <p className="whitespace-pre-wrap text-sm text-slate-800 [overflow-wrap:anywhere]">{text}</p>}
      {list.map((block, i) => (
        <Block key={typeof block.block_id === "string" ? block.block_id : i} block={block} onAction={onAction} disabled={disabled} />
      ))}
    </div>
  );
}
