/** An entry's arguments in a line, each value cut to 16 characters (a JSON body's values as JSON). */
export function argumentsLine(params: Record<string, unknown>): string {
  return Object.entries(params)
    .map(([k, value]) => {
      const v = typeof value === "string" ? value : JSON.stringify(value);
      return `${k}=${v.length > 16 ? `${v.slice(0, 16)}…` : v}`;
    })
    .join(" ");
}
