"use client";

import { useEffect, useRef, useState } from "react";
import useSWR from "swr";
import type { MemberActAnswerWire, MemberViewsWire, WorkspaceMemberWire, WorkspacePeopleWire } from "@/lib/emulator-admin/universal/schemas";
import { answerError, consoleFetch, fetchJson, jsonBody, readAnswer } from "./console-fetch";
import { INITIAL_STREAM_STATE, nextStreamState, type WorkspaceStreamEvent, type WorkspaceStreamState } from "./workspace-stream-state";

/** The Workspace page's reads and acts (app/api/workspace/*), as the member `user` (undefined: the primary owner). */

const q = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : "";
};

export function useWorkspaceMember(user: string | undefined) {
  return useSWR<WorkspaceMemberWire, Error>(`/api/workspace${q({ user })}`, (url: string) => fetchJson<WorkspaceMemberWire>(url), { keepPreviousData: true });
}

/** The people whose name or id holds `text` (none asked while it is empty), read from position `from` on. */
export function useWorkspacePeople(text: string, from: number) {
  const search = text.trim();
  return useSWR<WorkspacePeopleWire, Error>(
    search === "" ? null : `/api/workspace/people${q({ q: search, from: from > 0 ? String(from) : undefined })}`,
    (url: string) => fetchJson<WorkspacePeopleWire>(url),
    { keepPreviousData: true },
  );
}

export function useMemberViews(user: string | undefined) {
  return useSWR<MemberViewsWire, Error>(`/api/workspace/views${q({ user })}`, (url: string) => fetchJson<MemberViewsWire>(url));
}

export type ActName = "post" | "dm" | "react" | "open-home" | "command" | "click" | "suggest" | "shortcut" | "submit" | "close-view" | "join-team";

/** One act of the member; rejects with the route's ConsoleRequestError. */
export function actAsMember(name: ActName, body: Record<string, unknown>): Promise<MemberActAnswerWire> {
  return fetchJson<MemberActAnswerWire>(`/api/workspace/act/${name}`, jsonBody(body));
}

/** A change the emulator streamed (lib/emulator/workspace/changes.ts), as the page reads it. */
export type WorkspaceChange =
  | { type: "message_posted" | "message_changed"; channel: string; message: { ts: string } }
  | { type: "message_deleted"; channel: string; ts: string }
  | { type: "reaction"; channel: string; ts: string }
  | { type: "ephemeral"; channel: string; user: string; message: { ts: string; text?: string; deleted?: boolean } & Record<string, unknown> }
  | { type: "view"; user: string; view_id: string; closed: boolean }
  | { type: "member_joined"; user: string; name: string };

/**
 * The member's live stream of changes (GET /api/workspace/stream): `onChange` for each, and `onReconnect`
 * after every reconnection so the page reads again what it may have missed meanwhile. Returns the stream's
 * state (workspace-stream-state.ts): when the route refuses it (a fifth tab: 429 too_many_streams), the page
 * learns why and a new EventSource opens after its Retry-After, or after a growing pause.
 */
export function useWorkspaceStream(
  user: string | undefined,
  enabled: boolean,
  onChange: (change: WorkspaceChange) => void,
  onReconnect: () => void,
): WorkspaceStreamState {
  const handlers = useRef({ onChange, onReconnect });
  const [state, setState] = useState<WorkspaceStreamState>(INITIAL_STREAM_STATE);
  useEffect(() => {
    handlers.current = { onChange, onReconnect };
  });
  useEffect(() => {
    if (!enabled) return;
    const url = `/api/workspace/stream${q({ user })}`;
    let current = INITIAL_STREAM_STATE;
    const apply = (event: WorkspaceStreamEvent) => {
      current = nextStreamState(current, event);
      setState(current);
      return current;
    };
    let source: EventSource | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    const asking = new AbortController();
    const open = () => {
      source = new EventSource(url);
      source.addEventListener("ready", () => {
        // Live after a drop or a refusal: what changed meanwhile came on no stream, so read everything again.
        if (current.kind !== "connecting") handlers.current.onReconnect();
        apply({ type: "ready" });
      });
      source.addEventListener("change", (event) => {
        try {
          handlers.current.onChange(JSON.parse((event as MessageEvent<string>).data) as WorkspaceChange);
        } catch {
          // A change the page cannot read is skipped; the next read of the history shows it.
        }
      });
      source.addEventListener("error", () => {
        if (source?.readyState !== EventSource.CLOSED) return void apply({ type: "dropped" });
        source.close();
        void askWhy(url, asking.signal).then((closed) => {
          if (!closed) return;
          const next = apply(closed);
          const wait = "retryInMs" in next && next.retryInMs !== undefined ? next.retryInMs : 0;
          // Jittered upward, so tabs refused together do not all come back in the same instant.
          reopen = setTimeout(open, wait * (1 + Math.random() / 4));
        });
      });
    };
    open();
    return () => {
      asking.abort();
      clearTimeout(reopen);
      source?.close();
      // Another member's stream (or none) starts from the beginning.
      setState(INITIAL_STREAM_STATE);
    };
  }, [user, enabled]);
  return state;
}

/**
 * What the route answers when asked again for the stream an EventSource gave up on (an EventSource never
 * shows a status): its status, error code and Retry-After. A stream it opens meanwhile is let go at once.
 * Null when the page left.
 */
async function askWhy(url: string, signal: AbortSignal): Promise<WorkspaceStreamEvent | null> {
  const asked = new AbortController();
  const leave = () => asked.abort();
  signal.addEventListener("abort", leave);
  try {
    const response = await consoleFetch(url, { signal: asked.signal });
    if (response.ok) {
      asked.abort();
      return { type: "closed", status: response.status };
    }
    const error = answerError(response.status, (await readAnswer(response)).text);
    return { type: "closed", status: response.status, code: error.code, message: error.message, retryAfter: response.headers.get("retry-after") };
  } catch {
    return signal.aborted ? null : { type: "closed", status: 0 };
  } finally {
    signal.removeEventListener("abort", leave);
  }
}
