"use client";

import { useEffect, useRef } from "react";
import useSWR from "swr";
import type { MemberActAnswerWire, MemberViewsWire, WorkspaceHistoryWire, WorkspaceMemberWire } from "@/lib/emulator-admin/universal/schemas";
import { fetchJson, jsonBody } from "./console-fetch";

/** The Workspace page's reads and acts (app/api/workspace/*), as the member `user` (undefined: the primary owner). */

const q = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : "";
};

export function useWorkspaceMember(user: string | undefined, people: number | undefined) {
  return useSWR<WorkspaceMemberWire, Error>(
    `/api/workspace${q({ user, people: people === undefined ? undefined : String(people) })}`,
    (url: string) => fetchJson<WorkspaceMemberWire>(url),
    { keepPreviousData: true },
  );
}

export function useWorkspaceHistory(user: string | undefined, channel: string | undefined) {
  return useSWR<WorkspaceHistoryWire, Error>(channel ? `/api/workspace/history${q({ user, channel })}` : null, (url: string) =>
    fetchJson<WorkspaceHistoryWire>(url),
  );
}

export function useMemberViews(user: string | undefined) {
  return useSWR<MemberViewsWire, Error>(`/api/workspace/views${q({ user })}`, (url: string) => fetchJson<MemberViewsWire>(url));
}

export type ActName = "post" | "dm" | "react" | "open-home" | "command" | "click" | "shortcut" | "submit" | "close-view";

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
  | { type: "view"; user: string; view_id: string; closed: boolean };

/**
 * The member's live stream of changes (GET /api/workspace/stream): `onChange` for each; EventSource
 * reconnects by itself, and `onReconnect` lets the page read again what it may have missed meanwhile.
 */
export function useWorkspaceStream(user: string | undefined, enabled: boolean, onChange: (change: WorkspaceChange) => void, onReconnect: () => void) {
  const handlers = useRef({ onChange, onReconnect });
  useEffect(() => {
    handlers.current = { onChange, onReconnect };
  });
  useEffect(() => {
    if (!enabled) return;
    const source = new EventSource(`/api/workspace/stream${q({ user })}`);
    let opened = false;
    source.addEventListener("ready", () => {
      if (opened) handlers.current.onReconnect();
      opened = true;
    });
    source.addEventListener("change", (event) => {
      try {
        handlers.current.onChange(JSON.parse((event as MessageEvent<string>).data) as WorkspaceChange);
      } catch {
        // A change the page cannot read is skipped; the next read of the history shows it.
      }
    });
    return () => source.close();
  }, [user, enabled]);
}
