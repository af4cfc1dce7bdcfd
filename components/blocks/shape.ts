/**
 * Blocks arrive as whatever JSON the app sent: these read a field of the expected kind or nothing, so that a
 * block with a wrong field renders what it can instead of throwing.
 */
export type Json = Record<string, unknown>;

export function asObject(value: unknown): Json | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asObjects(value: unknown): Json[] {
  return asArray(value).flatMap((v): Json[] => {
    const o = asObject(v);
    return o ? [o] : [];
  });
}

/** A text object's text (plain_text or mrkdwn), or a bare string. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  return asString(asObject(value)?.text) ?? "";
}

/** An element's options, flattened from option_groups when it has those. */
export function optionsOf(element: Json): Json[] {
  const groups = asObjects(element.option_groups);
  return groups.length > 0 ? groups.flatMap((g) => asObjects(g.options)) : asObjects(element.options);
}

/** A block's block_id; one without gets its position, as the platform gives every block an id of its own. */
export function blockIdOf(block: Json, index: number): string {
  return asString(block.block_id) ?? `block-${index}`;
}
