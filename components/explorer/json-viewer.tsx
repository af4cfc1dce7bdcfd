"use client";

import { memo, useState } from "react";
import { JsonString, PlatformText } from "@/components/platform-text";
import { childCount, childSlice, kindOf, SLICE, STRING_PREVIEW, summarize } from "@/lib/explorer/json-tree";

/**
 * A JSON tree that renders only what is open: every node starts collapsed (the root shows its keys), a node
 * renders its children when expanded, and large arrays open a slice at a time. A multi-megabyte response is
 * never stringified or laid out whole, so the tab stays responsive.
 */
export function JsonViewer({ value, label = "response" }: { value: unknown; label?: string }) {
  return (
    <div
      role="tree"
      aria-label="JSON response"
      className="max-h-[36rem] overflow-auto rounded-md border border-slate-200 bg-white p-3 font-mono text-xs leading-5"
    >
      <JsonNode name={label} value={value} depth={0} initiallyOpen />
    </div>
  );
}

const SCALAR_CLASS: Record<string, string> = {
  string: "text-emerald-700",
  number: "text-sky-700",
  boolean: "text-violet-700",
  null: "text-slate-500",
};

const JsonNode = memo(function JsonNode({
  name,
  value,
  depth,
  initiallyOpen = false,
}: {
  name: string;
  value: unknown;
  depth: number;
  initiallyOpen?: boolean;
}) {
  const kind = kindOf(value);
  const [open, setOpen] = useState(initiallyOpen);
  const [shown, setShown] = useState(SLICE);
  const key = (
    <span className="text-slate-500">
      <PlatformText>{name}</PlatformText>:
    </span>
  );

  if (kind !== "object" && kind !== "array") {
    return (
      <div role="treeitem" aria-selected={false} className="whitespace-pre-wrap break-all pl-4">
        {key} <ScalarValue value={value} kind={kind} />
      </div>
    );
  }

  const count = childCount(value);
  return (
    <div role="treeitem" aria-expanded={open} aria-selected={false}>
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-1 rounded px-0.5 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-500"
      >
        <span aria-hidden className={`inline-block w-3 text-slate-500 transition-transform ${open ? "rotate-90" : ""}`}>
          ▸
        </span>
        {key} <span className="text-slate-500">{summarize(value)}</span>
      </button>
      {open && (
        <div role="group" className="ml-1.5 border-l border-slate-200 pl-2">
          {childSlice(value, 0, shown).map(([childName, child]) => (
            <JsonNode key={childName} name={childName} value={child} depth={depth + 1} />
          ))}
          {shown < count && (
            <button type="button" onClick={() => setShown((s) => s + SLICE)} className="ml-4 mt-0.5 rounded px-1 text-emerald-700 hover:bg-emerald-50">
              Show {Math.min(SLICE, count - shown).toLocaleString("en-US")} more of {(count - shown).toLocaleString("en-US")}
            </button>
          )}
        </div>
      )}
    </div>
  );
});

function ScalarValue({ value, kind }: { value: unknown; kind: string }) {
  const [full, setFull] = useState(false);
  const cls = SCALAR_CLASS[kind] ?? "";
  if (kind === "string" && typeof value === "string" && value.length > STRING_PREVIEW && !full) {
    return (
      <>
        <span className={cls}>
          <JsonString value={value.slice(0, STRING_PREVIEW)} />…
        </span>{" "}
        <button type="button" onClick={() => setFull(true)} className="text-emerald-700 hover:underline">
          {value.length.toLocaleString("en-US")} chars
        </button>
      </>
    );
  }
  if (typeof value === "string") return <JsonString className={cls} value={value} />;
  return <span className={cls}>{summarize(value)}</span>;
}
