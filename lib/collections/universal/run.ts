/**
 * A collection run: its requests called in order against one installation, each answer kept with its
 * timing, values taken from earlier answers into later arguments by a small explicit mapping (a binding:
 * this argument ← step n's dotted path), stopping at the first answer that is not `ok: true` unless told
 * to go on. Not a scripting language: a binding names a value, nothing computes one.
 */
import type { Binding, RequestFields } from "./model";

/** One step's outcome: sent (with the answer), failed before sending (a binding that found nothing), or not run. */
export type StepOutcome =
  | { status: "answered"; ok: boolean; httpStatus: number; body: unknown; error: string | null; upstreamMs: number | null; roundTripMs: number }
  | { status: "not_sent"; error: string }
  | { status: "skipped" };

export interface RunStep {
  requestId: string;
  name: string;
  method: string;
  /** The arguments sent, bound values filled in. */
  args: Array<{ key: string; value: string }>;
  outcome: StepOutcome;
}

/** What a step's call answered, as the runner needs it. */
export interface StepAnswer {
  httpStatus: number;
  body: unknown;
  upstreamMs: number | null;
  roundTripMs: number;
}

/** The value at a dotted path of an answer (`channel.id`, `members.0.id`), or undefined when the path leads nowhere. */
export function valueAtPath(answer: unknown, path: string): unknown {
  let current: unknown = answer;
  for (const part of path.split(".")) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** A bound value as an argument's text: a string as it is, anything else as JSON. */
const asArgument = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * The arguments of step `index` (0-based) with its bindings filled from earlier answers, or why not: a
 * binding to a step that does not run before it, to a step with no answer, or to a path the answer lacks.
 */
export function bindArguments(
  request: Pick<RequestFields, "args" | "bindings">,
  index: number,
  answers: ReadonlyArray<unknown | undefined>,
): { args: Array<{ key: string; value: string }> } | { error: string } {
  const args = request.args.map((arg) => ({ ...arg }));
  for (const binding of request.bindings) {
    const found = boundValue(binding, index, answers);
    if ("error" in found) return found;
    const at = args.findIndex((arg) => arg.key === binding.param);
    if (at >= 0) args[at] = { key: binding.param, value: found.value };
    else args.push({ key: binding.param, value: found.value });
  }
  return { args };
}

function boundValue(binding: Binding, index: number, answers: ReadonlyArray<unknown | undefined>): { value: string } | { error: string } {
  if (binding.step > index) {
    // A request run alone, or a binding to a later step: nothing in this run answered before it.
    return {
      error: `${binding.param} takes step ${binding.step}'s ${binding.path}, which this run does not answer before it: run the whole collection, in an order where step ${binding.step} comes first.`,
    };
  }
  const answer = answers[binding.step - 1];
  if (answer === undefined) return { error: `${binding.param} takes step ${binding.step}'s ${binding.path}, but step ${binding.step} has no answer.` };
  const value = valueAtPath(answer, binding.path);
  if (value === undefined)
    return { error: `${binding.param} takes step ${binding.step}'s ${binding.path}, which step ${binding.step}'s answer does not have.` };
  return { value: asArgument(value) };
}

export interface RunOptions<R extends RequestFields & { id: string }> {
  requests: readonly R[];
  /** Go on after a step that is not `ok: true` (else the steps after it are skipped). */
  continueOnError: boolean;
  /** Calls one step (through /api/call, with the run's installation); rejects only when the console cannot be reached. */
  call: (request: R, args: Array<{ key: string; value: string }>) => Promise<StepAnswer>;
  /** Each step as it ends (for a page to show the run as it goes). */
  onStep?: (steps: RunStep[]) => void;
  signal?: AbortSignal;
}

const answerError = (body: unknown, httpStatus: number): string | null => {
  const b = body as { ok?: unknown; error?: unknown } | null;
  if (b !== null && typeof b === "object" && b.ok === true) return null;
  return typeof b?.error === "string" ? b.error : `http_${httpStatus}`;
};

/** Runs the steps in order; answers every step's outcome (skipped ones too). */
export async function runCollection<R extends RequestFields & { id: string }>(options: RunOptions<R>): Promise<RunStep[]> {
  const steps: RunStep[] = options.requests.map((r) => ({ requestId: r.id, name: r.name, method: r.method, args: r.args, outcome: { status: "skipped" } }));
  const answers: Array<unknown | undefined> = [];
  for (const [index, request] of options.requests.entries()) {
    if (options.signal?.aborted) break;
    const bound = bindArguments(request, index, answers);
    let failed: boolean;
    if ("error" in bound) {
      steps[index] = { ...steps[index]!, outcome: { status: "not_sent", error: bound.error } };
      failed = true;
    } else {
      const answer = await options.call(request, bound.args);
      const error = answerError(answer.body, answer.httpStatus);
      answers[index] = answer.body;
      steps[index] = {
        ...steps[index]!,
        args: bound.args,
        outcome: {
          status: "answered",
          ok: error === null,
          httpStatus: answer.httpStatus,
          body: answer.body,
          error,
          upstreamMs: answer.upstreamMs,
          roundTripMs: answer.roundTripMs,
        },
      };
      failed = error !== null;
    }
    options.onStep?.([...steps]);
    if (failed && !options.continueOnError) break;
  }
  return steps;
}
