"use client";

import { useId } from "react";
import type { CatalogArgument, CatalogMethod } from "@/lib/explorer/catalog";
import { argumentEntity } from "@/lib/explorer/argument-entities";
import { argumentProblem } from "@/lib/explorer/params";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { INPUT } from "@/components/ui/primitives";
import { EntityPicker } from "./entity-picker";

/** Whose token lists what the pickers offer: the installation and token the request is sent with. */
interface PickerSource {
  installation: string;
  token: TokenKind;
}

/** Arguments the form has fields of its own for (the token is the session's; cursor and limit page). */
const HANDLED_ELSEWHERE = new Set(["token"]);
const PAGING = new Set(["cursor", "limit"]);

/** The catalog's arguments the argument form shows for a method. */
export function formArguments(method: CatalogMethod): CatalogArgument[] {
  return method.args.filter((arg) => !HANDLED_ELSEWHERE.has(arg.name) && !(method.pagination && PAGING.has(arg.name)));
}

/**
 * One argument's field. Its accessible name is the argument's name alone (what getByLabel and a screen
 * reader's list of fields find); its type and whether it is required are a description of their own, so
 * that name and type are never read as one word.
 */
function ArgumentField({
  arg,
  conditional,
  value,
  onChange,
  source,
}: {
  arg: CatalogArgument;
  /** The id of the rule of the conditionally required arguments, when this is one of them. */
  conditional: string | null;
  value: string;
  onChange(value: string): void;
  source: PickerSource | undefined;
}) {
  const ids = useId();
  const entity = argumentEntity(arg);
  const problem = argumentProblem(arg.type, value);
  const describedBy = [`${ids}-type`, conditional ?? "", arg.description ? `${ids}-desc` : "", problem ? `${ids}-problem` : ""].filter(Boolean).join(" ");
  const common = {
    id: `${ids}-input`,
    "aria-invalid": problem !== null,
    "aria-describedby": describedBy,
    "aria-required": arg.required === true,
  };
  const invalidRing = problem ? "border-amber-500 focus:border-amber-600 focus:ring-amber-500/30" : "";
  const typeLine = [
    arg.type,
    arg.required ? "required" : conditional ? "conditionally required" : "",
    arg.default !== undefined ? `default ${arg.default}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <div className={arg.type === "json" ? "md:col-span-2" : ""}>
      <div className="mb-1 flex items-baseline gap-1.5 text-xs">
        <label htmlFor={common.id} className="font-mono font-medium text-slate-700">
          {arg.name}
        </label>
        {/* Outside the label, so that the name is the argument's alone; aria-required and the type line say it. */}
        {arg.required && (
          <span className="text-rose-700" aria-hidden>
            *
          </span>
        )}
        <span id={`${ids}-type`} className="text-slate-500">
          {typeLine}
        </span>
      </div>
      {arg.type === "boolean" ? (
        <select {...common} value={value} onChange={(e) => onChange(e.target.value)} className={`${INPUT} font-mono ${invalidRing}`}>
          <option value="">(not sent)</option>
          <option value="true">true</option>
          <option value="false">false</option>
          {value !== "" && value !== "true" && value !== "false" && <option value={value}>{value}</option>}
        </select>
      ) : arg.type === "json" ? (
        <textarea
          {...common}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          rows={value.split("\n").length > 3 ? 8 : 3}
          spellCheck={false}
          placeholder={arg.name === "blocks" ? '[{"type": "section", "text": {"type": "mrkdwn", "text": "Hello"}}]' : "JSON"}
          className={`${INPUT} font-mono text-xs ${invalidRing}`}
        />
      ) : (
        <input
          {...common}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          inputMode={arg.type === "integer" || arg.type === "number" ? "numeric" : undefined}
          placeholder={arg.default !== undefined ? arg.default : ""}
          spellCheck={false}
          autoComplete="off"
          className={`${INPUT} font-mono ${invalidRing}`}
        />
      )}
      {entity && source && (
        <EntityPicker entity={entity} argName={arg.name} installation={source.installation} token={source.token} value={value} onPick={onChange} />
      )}
      {problem && (
        <p id={`${ids}-problem`} className="mt-0.5 text-xs text-amber-800">
          {arg.name} {problem}: it is sent as typed, and the platform decides.
        </p>
      )}
      {arg.description && (
        <p id={`${ids}-desc`} title={arg.description} className="mt-0.5 line-clamp-2 text-xs text-slate-500">
          {arg.description}
        </p>
      )}
    </div>
  );
}

/**
 * The method's arguments as typed fields, from the catalog: required ones first and marked, with the ones
 * a call needs one of (chat.postMessage's text, blocks, attachments) and the platform's rule for them; the
 * rest under "More arguments" (open when one of them has a value). Values live in the request's parameters.
 */
export function ArgumentForm({
  method,
  values,
  onChange,
  source,
}: {
  method: CatalogMethod;
  values: ReadonlyMap<string, string>;
  onChange(name: string, value: string): void;
  /** Lists the channels, members and files the pickers offer (absent: no pickers). */
  source?: PickerSource;
}) {
  const ruleId = useId();
  const args = formArguments(method);
  if (args.length === 0) return <p className="text-xs text-slate-500">{method.name} takes no arguments besides the token.</p>;
  const conditionalNames = method.conditionallyRequired?.args ?? [];
  const required = args.filter((a) => a.required);
  const conditional = conditionalNames.flatMap((name) => args.filter((a) => a.name === name && !a.required));
  const shown = [...required, ...conditional];
  const optional = args.filter((a) => !shown.includes(a));
  const optionalSet = optional.filter((a) => (values.get(a.name) ?? "") !== "").length;
  const field = (arg: CatalogArgument) => (
    <ArgumentField
      key={arg.name}
      arg={arg}
      conditional={conditional.includes(arg) ? ruleId : null}
      value={values.get(arg.name) ?? ""}
      onChange={(v) => onChange(arg.name, v)}
      source={source}
    />
  );
  return (
    <div className="space-y-3">
      {shown.length > 0 && <div className="grid gap-3 md:grid-cols-2">{shown.map(field)}</div>}
      {conditional.length > 0 && method.conditionallyRequired && (
        <p id={ruleId} className="text-xs text-slate-600">
          {method.conditionallyRequired.rule}
        </p>
      )}
      {optional.length > 0 && (
        <details open={optionalSet > 0 || shown.length === 0 ? true : undefined} className="group">
          <summary className="cursor-pointer text-sm font-medium text-slate-700">
            {shown.length > 0 ? "More arguments" : "Arguments"} ({optional.length}
            {optionalSet > 0 ? `, ${optionalSet} set` : ""})
          </summary>
          <div className="mt-2 grid gap-3 md:grid-cols-2">{optional.map(field)}</div>
        </details>
      )}
    </div>
  );
}
