"use client";

import { useSyncExternalStore } from "react";
import { BUTTON } from "@/components/ui/primitives";

const DEFAULT_SHORTCUT = "Ctrl+Enter";
const noSubscription = () => () => {};

function platformShortcut(): string {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  const platform = nav.userAgentData?.platform || nav.platform || "";
  return /mac|iphone|ipad/i.test(platform) ? "⌘↵" : DEFAULT_SHORTCUT;
}

/**
 * The shortcut as this platform writes it. The server cannot know the platform, so the page hydrates with
 * the default (a first client render that differed from the server's would be a mismatch), then reads it.
 */
function useSendShortcut(): string {
  return useSyncExternalStore(noSubscription, platformShortcut, () => DEFAULT_SHORTCUT);
}

/**
 * The two ways to call: Send (one call, the form's submit, with its shortcut) and, for a method that pages,
 * Fetch all. While the method catalog loads, Send says it waits for it: the catalog types the arguments.
 */
export function SendButtons({
  canCall,
  busy,
  waiting,
  paginated,
  walking,
  onFetchAll,
}: {
  canCall: boolean;
  busy: boolean;
  /** The method catalog has not loaded yet. */
  waiting: boolean;
  paginated: boolean;
  walking: boolean;
  onFetchAll: () => void;
}) {
  const shortcut = useSendShortcut();
  return (
    <div className="flex items-end gap-2">
      <button type="submit" className={BUTTON.primary} disabled={!canCall || busy} title={`Send (${shortcut})`}>
        {waiting ? "Loading method…" : "Send"}
        <kbd aria-hidden className="rounded bg-emerald-900/40 px-1 font-mono text-[10px] font-normal">
          {shortcut}
        </kbd>
      </button>
      {paginated && (
        <button type="button" className={BUTTON.secondary} disabled={!canCall || walking} onClick={onFetchAll}>
          Fetch all
        </button>
      )}
    </div>
  );
}
