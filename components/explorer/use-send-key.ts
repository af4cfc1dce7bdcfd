"use client";

import { useEffect, useEffectEvent } from "react";

/** Ctrl/Cmd+Enter calls `send` from anywhere on the page. */
export function useSendKey(send: () => void) {
  const onShortcut = useEffectEvent(() => send());
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        onShortcut();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
