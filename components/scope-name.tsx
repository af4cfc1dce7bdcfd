import { Fragment } from "react";

/**
 * A scope's name, which may wrap only after its `:` and `.` (`chat:` / `write.` / `public`), never inside a
 * word: `break-all` cut "chat:write" into "chat:wri" and "te" at 390 px, and a plain wrap would still cut
 * "incoming-webhook" at its hyphen. Each part between those points keeps together (the longest on the
 * platform's scopes page, "manage_objects", is 14 characters).
 */
export function ScopeName({ name }: { name: string }) {
  const parts = name.split(/(?<=[:.])/);
  return (
    <span>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          <span className="whitespace-nowrap">{part}</span>
        </Fragment>
      ))}
    </span>
  );
}
