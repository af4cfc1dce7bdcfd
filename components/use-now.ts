"use client";

import { useEffect, useState } from "react";

/**
 * The time now, ticking every `intervalMs` while `active`. It reads null until mounted, so a server render
 * and the first client render agree.
 */
export function useNow(intervalMs: number, active = true): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return now;
}
