"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { CompareSide } from "@/lib/explorer/compare";
import { CompareRunner, type CompareState } from "./compare-runner";

/** The history page's compares, in a Web Worker (diff.worker.ts): compare-runner.ts says how runs supersede and fail. */
export function useCompare() {
  const [state, setState] = useState<CompareState>({ status: "idle" });
  const runner = useRef<CompareRunner | null>(null);
  const current = () => (runner.current ??= new CompareRunner(() => new Worker(new URL("./diff.worker.ts", import.meta.url)), setState));

  useEffect(
    () => () => {
      runner.current?.dispose();
      runner.current = null;
    },
    [],
  );

  const compare = useCallback((left: CompareSide, right: CompareSide) => current().compare(left, right), []);
  const close = useCallback(() => current().close(), []);
  return { state, compare, close };
}
