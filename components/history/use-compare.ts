"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { CompareAnswer, CompareSide } from "@/lib/explorer/compare";

export type CompareState = { status: "idle" } | { status: "running" } | { status: "done"; answer: CompareAnswer };

/**
 * Compares two answers in a Web Worker (diff.worker.ts), made on the first compare and ended with the page.
 * A compare asked while another runs supersedes it: only the newest run's answer is shown.
 */
export function useCompare() {
  const worker = useRef<Worker | null>(null);
  const runs = useRef(0);
  const [state, setState] = useState<CompareState>({ status: "idle" });

  useEffect(
    () => () => {
      worker.current?.terminate();
      worker.current = null;
    },
    [],
  );

  const compare = useCallback((left: CompareSide, right: CompareSide) => {
    if (!worker.current) {
      worker.current = new Worker(new URL("./diff.worker.ts", import.meta.url));
      worker.current.onmessage = (event: MessageEvent<CompareAnswer>) => {
        if (event.data.run === runs.current) setState({ status: "done", answer: event.data });
      };
      worker.current.onerror = (event) => {
        setState({ status: "done", answer: { run: runs.current, ok: false, message: event.message || "The compare worker failed." } });
      };
    }
    runs.current += 1;
    setState({ status: "running" });
    worker.current.postMessage({ run: runs.current, left, right });
  }, []);

  const close = useCallback(() => {
    runs.current += 1;
    setState({ status: "idle" });
  }, []);

  return { state, compare, close };
}
