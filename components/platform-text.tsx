import type { ReactNode } from "react";

/**
 * Text that came from the platform or from a person (messages, names, labels, answers), in a <bdi>: the
 * browser isolates it (unicode-bidi: isolate) and takes its direction from its own first letter, so a
 * right-to-left override or a right-to-left name inside cannot reorder what is shown around it.
 */
export function PlatformText({ children, className }: { children: ReactNode; className?: string }) {
  return <bdi className={className}>{children}</bdi>;
}

/** A string as JSON writes it, quoted and escaped, with what is inside the quotes isolated. */
export function JsonString({ value, className }: { value: string; className?: string }) {
  return (
    <span className={className}>
      &quot;<bdi>{JSON.stringify(value).slice(1, -1)}</bdi>&quot;
    </span>
  );
}

/** A string literal in JSON.stringify's output, where `"` and `\` inside are always escaped. */
const JSON_STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;
/** Right-to-left letters and bidi controls are all outside ASCII. */
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A value pretty-printed as JSON (for a <pre>), each string isolated inside its quotes as in JsonString.
 * Only strings with characters outside ASCII need it, so a large payload stays mostly one text node.
 */
export function PlatformJson({ value }: { value: unknown }) {
  const json = JSON.stringify(value, null, 2) ?? "";
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of json.matchAll(JSON_STRING_LITERAL)) {
    if (!NON_ASCII.test(match[0])) continue;
    const end = match.index + match[0].length;
    parts.push(json.slice(last, match.index + 1), <bdi key={match.index}>{json.slice(match.index + 1, end - 1)}</bdi>);
    last = end - 1;
  }
  parts.push(json.slice(last));
  return <>{parts}</>;
}
