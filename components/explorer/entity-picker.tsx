"use client";

import type { ArgumentEntity } from "@/lib/explorer/argument-entities";
import { ENTITY_LIST } from "@/lib/explorer/argument-entities";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { useEntityChoices } from "@/lib/swr/use-entity-choices";
import { INPUT } from "@/components/ui/primitives";

const NOUN: Record<ArgumentEntity, string> = { channel: "a channel", user: "a member", file: "a file" };

/**
 * Beside an argument that names a channel, a member or a file: what the selected installation's token lists
 * (ENTITY_LIST), to pick one by name. Picking writes its id into the field, which still takes any id typed.
 */
export function EntityPicker({
  entity,
  argName,
  installation,
  token,
  value,
  onPick,
}: {
  entity: ArgumentEntity;
  argName: string;
  installation: string;
  token: TokenKind;
  value: string;
  onPick(id: string): void;
}) {
  const { data, error, isLoading } = useEntityChoices(entity, installation, token);
  const choices = data?.choices ?? [];
  const known = choices.some((c) => c.id === value);
  const list = ENTITY_LIST[entity];
  const problem = error
    ? error.message
    : data?.error
      ? `${list.method} answered ${data.error}${data.error === "missing_scope" ? ` (it needs ${list.scope})` : ""}`
      : null;
  return (
    <div className="mt-1">
      <select
        aria-label={`Pick ${NOUN[entity]} for ${argName}`}
        value={known ? value : ""}
        disabled={!installation || isLoading || choices.length === 0}
        onChange={(e) => e.target.value && onPick(e.target.value)}
        className={`${INPUT} text-xs`}
      >
        <option value="">
          {isLoading ? "Listing…" : choices.length === 0 ? `Nothing to pick: type an id` : `Pick ${NOUN[entity]} (${list.method}), or type an id above`}
        </option>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.label}
          </option>
        ))}
      </select>
      {problem && <p className="mt-0.5 text-xs text-slate-500">Not listed: {problem}. A typed id is sent as it is.</p>}
    </div>
  );
}
