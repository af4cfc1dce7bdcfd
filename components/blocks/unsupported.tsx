/** A block or element the renderer does not draw: named, so the developer sees what the member would miss. */
export function Unsupported({ what }: { what: string }) {
  return <p className="rounded border border-dashed border-slate-300 px-2 py-1 text-xs text-slate-600">unsupported {what}</p>;
}
