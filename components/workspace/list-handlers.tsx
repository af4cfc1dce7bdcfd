"use client";

import { useCallback, useLayoutEffect, useMemo, useRef } from "react";
import type { WorkspaceMemberWire } from "@/lib/emulator-admin/universal/schemas";
import type { BlockHandlers } from "@/components/blocks/block-context";
import type { ActionEvent } from "@/components/blocks/actions";
import { Composer } from "./composer";
import type { MessageHandlers } from "./message-item";

/** What the conversation's rows do, as the page does it at the time of the act (its newest render's functions). */
export interface ListActs {
  react: (ts: string, name: string) => void;
  click: (ts: string, event: ActionEvent, blocks: readonly unknown[]) => void | Promise<unknown>;
  shortcut: (ts: string, app_id: string, callback_id: string) => void;
  suggest: (ts: string, blocks: readonly unknown[]) => NonNullable<BlockHandlers["suggest"]>;
  reply: (text: string, threadTs: string) => Promise<boolean>;
}

/**
 * The message list's handlers and reply box, the same objects while what the rows show from them is the same
 * (who reads, the names, the apps, busy, the conversation and its directory). The page renders again for
 * things the rows do not show (an older page being read, an act's note), and the rows are memoised: new
 * handlers each time rendered every row in view again, in the frame a person scrolls. The acts go to the
 * page's newest functions through a ref: they run in event handlers, after the render that set it.
 */
export function useListHandlers({
  member,
  historyNames,
  channelId,
  busy,
  acts,
}: {
  member: WorkspaceMemberWire | undefined;
  historyNames: Readonly<Record<string, string>>;
  channelId: string | undefined;
  busy: boolean;
  acts: ListActs;
}): { handlers: MessageHandlers | null; renderReplyBox: (threadTs: string) => React.ReactNode } {
  const latest = useRef(acts);
  useLayoutEffect(() => {
    latest.current = acts;
  });
  const people = member?.people;
  const apps = member?.apps;
  const conversations = member?.conversations;
  const names = useMemo(() => ({ ...Object.fromEntries((people ?? []).map((p) => [p.id, p.name])), ...historyNames }), [people, historyNames]);
  const directory = useMemo<BlockHandlers>(() => {
    const channelNames = new Map((conversations ?? []).filter((c) => c.type === "public" || c.type === "private").map((c) => [c.id, c.name]));
    return {
      userName: (id) => names[id],
      channelName: (id) => channelNames.get(id),
      members: [...(people ?? []), ...(apps ?? []).map((a) => ({ id: a.bot_user_id, name: a.name, bot: true }))],
      conversations: conversations ?? [],
      currentConversation: channelId,
    };
  }, [names, people, apps, conversations, channelId]);
  const me = member?.user;
  const handlers = useMemo<MessageHandlers | null>(
    () =>
      me === undefined || apps === undefined || channelId === undefined
        ? null
        : {
            me,
            names,
            apps,
            busy,
            channelName: directory.channelName!,
            onReact: (ts, name) => latest.current.react(ts, name),
            onAction: (ts, event, blocks) => latest.current.click(ts, event, blocks),
            blockHandlers: (ts, blocks) => ({ ...directory, suggest: (element, value) => latest.current.suggest(ts, blocks)(element, value) }),
            onShortcut: (ts, app_id, callback_id) => latest.current.shortcut(ts, app_id, callback_id),
          },
    [me, names, apps, busy, channelId, directory],
  );
  const renderReplyBox = useCallback(
    (threadTs: string) => <Composer label="Reply in thread" apps={apps ?? []} busy={busy} onPost={(text) => latest.current.reply(text, threadTs)} />,
    [apps, busy],
  );
  return { handlers, renderReplyBox };
}
