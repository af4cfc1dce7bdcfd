"use client";

import { useCallback, useRef, useState } from "react";
import type { SavedRequestView } from "@/lib/collections/universal/model";
import { runCollection, type RunStep } from "@/lib/collections/universal/run";
import { findMethod, type CatalogMethod } from "@/lib/explorer/catalog";
import { buildCall, type ExplorerRequest } from "@/lib/explorer/params";
import { sendApiCall } from "@/lib/swr/api-call";
import { useMethodCatalog } from "@/lib/swr/use-method-catalog";

export interface CollectionRun {
  installation: string;
  steps: RunStep[];
  running: boolean;
  /** How many requests the run was started with (one: a single request run). */
  size: number;
}

/** The explorer's request for a saved one, aimed at the run's installation, its arguments as bound. */
function explorerRequest(request: SavedRequestView, installation: string, args: Array<{ key: string; value: string }>): ExplorerRequest {
  return {
    method: request.method,
    installation,
    tokenKind: request.tokenKind,
    httpMethod: request.httpMethod,
    encoding: request.encoding,
    cursor: "",
    limit: "",
    extra: args,
  };
}

const typesOf = (catalog: readonly CatalogMethod[] | undefined, method: string) =>
  new Map((catalog ? (findMethod(catalog, method)?.args ?? []) : []).map((arg) => [arg.name, arg.type]));

/**
 * Runs saved requests in order through /api/call (each one names itself with savedRequestId, for the
 * history), against one installation: the run's steps appear as they end.
 */
export function useCollectionRun() {
  const { data: catalog } = useMethodCatalog();
  const [run, setRun] = useState<CollectionRun | null>(null);
  const abort = useRef<AbortController | null>(null);

  const start = useCallback(
    async (requests: SavedRequestView[], installation: string, continueOnError: boolean) => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      setRun({ installation, steps: [], running: true, size: requests.length });
      const steps = await runCollection({
        requests,
        continueOnError,
        signal: controller.signal,
        onStep: (done) => !controller.signal.aborted && setRun({ installation, steps: done, running: true, size: requests.length }),
        call: async (request, args) => {
          const call = buildCall(explorerRequest(request, installation, args), typesOf(catalog, request.method));
          const answer = await sendApiCall({ ...call, query: `${call.query}&savedRequestId=${encodeURIComponent(request.id)}` });
          return { httpStatus: answer.status, body: answer.body, upstreamMs: answer.upstreamMs, roundTripMs: answer.roundTripMs };
        },
      });
      if (!controller.signal.aborted) setRun({ installation, steps, running: false, size: requests.length });
    },
    [catalog],
  );

  return { run, start, clear: () => (abort.current?.abort(), setRun(null)) };
}
