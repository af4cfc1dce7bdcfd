"use client";

import type { WorkspaceStreamState } from "@/lib/swr/workspace-stream-state";

/** What a refusal of the live stream means to the person, by the route's code; any other shows the route's message. */
const REFUSALS: Record<string, string> = {
  too_many_streams: "Live updates paused: you have the most Workspace tabs open that one person may — close one.",
};

/**
 * A line above the page when its live stream is not live: why it was refused, or that it is reconnecting.
 * A working page stays quiet: "Live updates on" is for screen readers only.
 */
export function StreamStatus({ state }: { state: WorkspaceStreamState }) {
  if (state.kind === "connecting") return <p className="sr-only" role="status" />;
  if (state.kind === "live") {
    return (
      <p className="sr-only" role="status">
        Live updates on.
      </p>
    );
  }
  const refused = state.kind === "refused";
  const text = refused ? (REFUSALS[state.code] ?? `Live updates paused: ${state.message}`) : "Reconnecting…";
  const seconds = state.retryInMs === undefined ? undefined : Math.ceil(state.retryInMs / 1000);
  return (
    <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-1.5 text-sm text-amber-900">
      {text}
      {refused && seconds !== undefined ? ` Trying again in about ${seconds} s.` : ""}
    </p>
  );
}
