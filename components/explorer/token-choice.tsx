"use client";

import type { TokenKind } from "@/lib/installations/universal/token-kind";
import type { InstallationView } from "@/lib/installations/universal/view";

/** Which of the installation's tokens the call goes with; a kind the installation does not hold cannot be chosen. */
export function TokenChoice({
  name,
  tokenKind,
  installation,
  onChoose,
}: {
  /** The radio group's name. */
  name: string;
  tokenKind: TokenKind;
  installation: InstallationView | undefined;
  onChoose: (kind: TokenKind) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-1 block text-xs font-medium text-slate-600">Token</legend>
      <div className="flex rounded-md border border-slate-300 p-0.5 text-sm shadow-xs">
        {(["bot", "user"] as const).map((kind) => {
          const missing = installation !== undefined && installation[kind] === null;
          return (
            <label
              key={kind}
              title={missing ? `This installation has no ${kind} token` : undefined}
              className={`rounded px-3 py-1 ${missing ? "cursor-not-allowed text-slate-500" : "cursor-pointer"} ${tokenKind === kind ? "bg-slate-900 text-white" : missing ? "" : "text-slate-600 hover:bg-slate-100"}`}
            >
              <input
                type="radio"
                name={name}
                value={kind}
                checked={tokenKind === kind}
                disabled={missing}
                onChange={() => onChoose(kind)}
                className="sr-only"
              />
              {kind}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
