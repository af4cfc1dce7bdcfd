import { credentialProblem, type RequestFields } from "./model";

/** What reading a collection file gave: the requests to keep, what was left out and why, and what was dropped from the rest. */
export interface ImportedCollection {
  name: string;
  requests: RequestFields[];
  /** Requests not imported: which (its name or line) and why (an unknown method, a line that is not a request). */
  skipped: Array<{ item: string; reason: string }>;
  /** What was dropped from requests that were imported (a token, a binding to a skipped step). */
  notes: string[];
}

/**
 * The arguments without those that carry a credential or a token, each dropped one said in `notes` under
 * `label`: an import never keeps a token, whatever the file held.
 */
export function dropCredentials(label: string, args: Array<{ key: string; value: string }>, notes: string[]): Array<{ key: string; value: string }> {
  return args.filter((arg) => {
    const problem = credentialProblem(arg);
    if (problem) notes.push(`${label}: dropped the argument ${problem} (a saved request never keeps a token).`);
    return !problem;
  });
}

/**
 * Bindings of the kept requests once some steps were skipped: a binding to a later step follows it to its
 * new place; one to a skipped step is dropped with a note. `kept[i]` is the original step (1-based) of request i.
 */
export function renumberBindings(requests: RequestFields[], kept: number[], notes: string[]): RequestFields[] {
  const newStep = new Map(kept.map((original, i) => [original, i + 1]));
  return requests.map((request) => {
    const bindings = request.bindings.flatMap((binding) => {
      const step = newStep.get(binding.step);
      if (step === undefined) {
        notes.push(`${request.name}: dropped the binding of ${binding.param} to step ${binding.step}, which was not imported.`);
        return [];
      }
      return [{ ...binding, step }];
    });
    return { ...request, bindings };
  });
}
