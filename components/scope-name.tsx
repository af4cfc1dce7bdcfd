import { Fragment } from "react";

/**
 * A scope's name, which may wrap only after its `:` and `.` (`chat:` / `write.` / `public`), never inside a
 * word: `break-all` cut "chat:write" into "chat:wri" and "te" at 390 px. A name too long for even that
 * (none on the platform's page is) still wraps rather than overflowing: overflow-wrap break-word, which,
 * unlike `anywhere`, does not let a table column shrink until a word is cut.
 */
export function ScopeName({ name }: { name: string }) {
  const parts = name.split(/(?<=[:.])/);
  return (
    <span className="break-words">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
