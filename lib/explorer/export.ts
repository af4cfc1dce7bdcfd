import { columnsOf, toRow, type CollectionKind } from "./items";

/**
 * Downloads of a walk's result. CSV follows RFC 4180 (CRLF, quotes doubled) and defuses cells a spreadsheet
 * would run as a formula, since member names and titles are user-controlled text.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

export function escapeCsvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(kind: CollectionKind, items: readonly unknown[]): string {
  const columns = columnsOf(kind, items);
  const lines = [columns.map(escapeCsvCell).join(",")];
  for (const item of items) {
    const row = toRow(kind, item);
    lines.push(columns.map((c) => escapeCsvCell(row[c] ?? "")).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/** The JSON download: the collection under its own field name, as one response of the method would hold it. */
export function toJsonExport(method: string, field: string, items: readonly unknown[], pages: number): string {
  return JSON.stringify({ method, pages, count: items.length, [field]: items }, null, 2);
}

export function exportFileName(method: string, extension: "json" | "csv"): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);
  return `${method}-${stamp}.${extension}`;
}
