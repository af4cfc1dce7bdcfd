"use client";

import { useState } from "react";
import type { MemberActAnswerWire, WorkspaceMessageWire } from "@/lib/emulator-admin/universal/schemas";
import { actAsMember, useMemberViews, useWorkspaceMember, useWorkspaceStream, type ActName, type WorkspaceChange } from "@/lib/swr/use-workspace";
import { messagesOf } from "@/lib/swr/channel-history-state";
import { useChannelHistory } from "@/lib/swr/use-channel-history";
import { BUTTON } from "@/components/ui/primitives";
import type { BlockHandlers, SuggestAnswer } from "@/components/blocks/block-context";
import { ViewSurface } from "@/components/blocks/view";
import { ActNote, type ActRecord } from "./act-note";
import { AddMemberDialog } from "./add-member-dialog";
import { clickOf, submittedValues, suggestOf, suggestionOf } from "./block-acts";
import { Composer } from "./composer";
import { useListHandlers } from "./list-handlers";
import { MemberPicker } from "./member-picker";
import { MessageList } from "./message-list";
import { ModalDialog } from "./modal-dialog";
import { Sidebar, type Place } from "./sidebar";
import { StreamStatus } from "./stream-status";

/**
 * The emulated workspace as one of its members sees it: pick who you are, open a channel, a DM or an app's
 * Home, post, mention, run slash commands and shortcuts, click, react, fill modals. Every act goes through
 * the emulator to the app (HTTP or Socket Mode) and what the app does arrives live.
 */
export function WorkspaceConsole() {
  const [user, setUser] = useState<string | undefined>(undefined);
  const [place, setPlace] = useState<Place | null>(null);
  const [busy, setBusy] = useState(false);
  /** The modal view an act is on its way for (its stack's controls wait), or null. */
  const [viewInFlight, setViewInFlight] = useState<string | null>(null);
  const [record, setRecord] = useState<ActRecord | null>(null);
  /** Ephemeral messages streamed to this member (those an app sent with chat.postEphemeral are kept nowhere else). */
  const [live, setLive] = useState<WorkspaceMessageWire[]>([]);

  const member = useWorkspaceMember(user);
  const me = member.data?.user;
  /**
   * Who acts: the person picked, at once. The member's data (conversations, people) is the previous person's
   * until the new one's arrives (SWR keeps it), so acts name the picked person and the composer and modal wait.
   */
  const actor = user ?? me;
  const switching = actor !== me;
  const general = member.data?.conversations.find((c) => c.name === "general");
  const current: Place | null = place ?? (general ? { kind: "conversation", id: general.id } : null);
  const channelId = current?.kind === "conversation" ? current.id : undefined;
  const history = useChannelHistory(me, channelId);
  const views = useMemberViews(me);

  const stream = useWorkspaceStream(
    me,
    me !== undefined,
    (change: WorkspaceChange) => {
      if (change.type === "view") return void views.mutate();
      // A person joined: one more to act as and write to, in every member's page.
      if (change.type === "member_joined") return void member.mutate();
      // An ephemeral for someone else (the previous person, on a stream still open while the page switches) is not this member's.
      if (change.type === "ephemeral" && change.user !== actor) return;
      if (change.type === "ephemeral") {
        const message = { ...change.message, channel: change.channel } as unknown as WorkspaceMessageWire;
        setLive((list) => [...list.filter((m) => m.ts !== message.ts), ...(change.message.deleted ? [] : [message])].slice(-200));
      }
      if (!member.data?.conversations.some((c) => c.id === change.channel)) void member.mutate();
      if (change.channel === channelId) history.apply(change);
    },
    () => {
      void member.mutate();
      history.refresh();
      void views.mutate();
    },
  );

  /** Every act of the page: busy while on its way, its note, then the page reads again what it changed. */
  const perform = async (
    what: string | ((answer: MemberActAnswerWire) => string),
    name: ActName,
    body: Record<string, unknown>,
  ): Promise<{ answer: MemberActAnswerWire } | { error: string }> => {
    const viewId = typeof body.view_id === "string" ? body.view_id : null;
    setBusy(true);
    setViewInFlight(viewId);
    try {
      // A person joining is no member's act.
      const answer = await actAsMember(name, { ...body, ...(actor && name !== "join-team" ? { user: actor } : {}) });
      // A post or a reaction shows in the conversation itself; what reaches an app (an interaction) says how it went.
      setRecord(name === "post" || name === "react" ? null : { what: typeof what === "string" ? what : what(answer), answer });
      return { answer };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (typeof what === "string") setRecord({ what, error: message });
      return { error: message };
    } finally {
      // The modal's controls wait for the views after the answer: a control of a view that just closed would send view_not_found.
      history.refresh();
      await Promise.all([views.mutate(), name === "join-team" ? member.mutate() : undefined]);
      setBusy(false);
      setViewInFlight(null);
    }
  };
  const act = async (what: string, name: ActName, body: Record<string, unknown>): Promise<MemberActAnswerWire | null> => {
    const done = await perform(what, name, body);
    return "answer" in done ? done.answer : null;
  };
  // An external select asks the app (block_suggestion) where it is: a message (channel and ts) or a view (of a modal stack, the top one: the only one a member can act in).
  const suggestAt =
    (where: Record<string, string>, blocks: readonly unknown[]): NonNullable<BlockHandlers["suggest"]> =>
    async (element, value): Promise<SuggestAnswer> =>
      suggestionOf(await actAsMember("suggest", { ...suggestOf(element, blocks), ...where, value, ...(actor ? { user: actor } : {}) }));
  const waiting = busy || switching;
  const post = async (text: string, threadTs?: string) =>
    channelId !== undefined &&
    (await act(threadTs ? "Reply" : "Post", "post", { channel: channelId, text, ...(threadTs ? { thread_ts: threadTs } : {}) })) !== null;
  const list = useListHandlers({
    member: member.data,
    historyNames: history.state.names,
    channelId,
    busy: waiting,
    acts: {
      react: (ts, name) => void act(`React :${name}:`, "react", { channel: channelId, ts, name }),
      click: (ts, event, blocks) => act(`Click ${event.action.action_id}`, "click", { ...clickOf(event, blocks), channel: channelId, ts }),
      shortcut: (ts, app_id, callback_id) => void act(`Message shortcut ${callback_id}`, "shortcut", { callback_id, app_id, channel: channelId, ts }),
      suggest: (ts, blocks) => suggestAt({ channel: channelId ?? "", ts }, blocks),
      reply: (text, threadTs) => post(text, threadTs),
    },
  });
  /** One way to become someone else (the "You are" picker and the People list): what was shown for the previous person goes. */
  const switchTo = (id: string) => {
    setUser(id);
    setLive([]);
    setRecord(null);
  };

  if (member.error && !member.data) {
    return (
      <p role="alert" className="rounded-md border border-rose-300 bg-rose-50 px-3 py-2 text-sm text-rose-900">
        {member.error.message}
      </p>
    );
  }
  if (!member.data) return <p className="text-sm text-slate-600">Opening the workspace…</p>;
  const data = member.data;
  const conversation = data.conversations.find((c) => c.id === channelId);
  const homeApp = current?.kind === "home" ? data.apps.find((a) => a.app_id === current.app_id) : undefined;
  const home = homeApp ? views.data?.homes.find((v) => v.app_id === homeApp.app_id) : undefined;
  const modal = views.data?.modals.at(-1);
  // The stack the top modal is in (its app's): root first.
  const modalStack = modal ? (views.data?.modals ?? []).filter((v) => v.app_id === modal.app_id) : [];
  const names = { ...Object.fromEntries(data.people.map((p) => [p.id, p.name])), ...history.state.names };
  const channelNames = new Map(data.conversations.filter((c) => c.type === "public" || c.type === "private").map((c) => [c.id, c.name]));
  const nameHandlers = { userName: (id: string) => names[id], channelName: (id: string) => channelNames.get(id) };
  // What users, conversations and channels selects list: the members offered here and the apps' bot users, the member's conversations.
  const directory: BlockHandlers = {
    ...nameHandlers,
    members: [...data.people, ...data.apps.map((a) => ({ id: a.bot_user_id, name: a.name, bot: true }))],
    conversations: data.conversations,
    currentConversation: channelId,
  };
  const messages = messagesOf(
    history.state,
    live.filter((m) => (m as { channel?: string }).channel === channelId),
  );
  const globalShortcuts = data.apps.flatMap((a) => a.shortcuts.filter((s) => s.type === "global").map((s) => ({ ...s, app_id: a.app_id, app: a.name })));

  const openHome = (app_id: string, tab: "home" | "messages") =>
    act(tab === "home" ? "Open the App Home" : "Open the app's messages", "open-home", { app_id, tab });

  const onPlace = (next: Place) => {
    setPlace(next);
    if (next.kind === "home") void openHome(next.app_id, "home");
  };
  const openAppMessages = async (app_id: string, botUserId: string) => {
    await openHome(app_id, "messages");
    const fresh = await member.mutate();
    const dm = fresh?.conversations.find((c) => c.type === "im" && c.with?.includes(botUserId));
    if (dm) setPlace({ kind: "conversation", id: dm.id });
  };

  return (
    <div className="space-y-3">
      <StreamStatus state={stream} />
      <div className="flex flex-wrap items-end gap-3">
        <MemberPicker actor={actor} people={data.people} memberCount={data.member_count} onPick={switchTo} />
        <AddMemberDialog
          onAdd={async (person) => {
            // The note links to the team_join sent to the apps that subscribe; a refusal shows in the dialog.
            const done = await perform(() => `${person.real_name} joined the workspace`, "join-team", person);
            return "error" in done ? done.error : null;
          }}
        />
        {globalShortcuts.length > 0 && (
          <details className="relative">
            <summary className={`${BUTTON.secondary} cursor-pointer list-none`}>Shortcuts</summary>
            <ul className="absolute z-10 mt-1 min-w-56 rounded-md border border-slate-200 bg-white p-1 shadow-lg">
              {globalShortcuts.map((s) => (
                <li key={`${s.app_id}${s.callback_id}`}>
                  <button
                    type="button"
                    className="w-full rounded px-2 py-1 text-left text-sm hover:bg-slate-100"
                    onClick={(e) => {
                      // The menu closes once a shortcut is picked, as a menu does (not left open under the app's modal).
                      e.currentTarget.closest("details")?.removeAttribute("open");
                      void act(`Shortcut “${s.name}”`, "shortcut", { callback_id: s.callback_id, app_id: s.app_id });
                    }}
                  >
                    {s.name} <span className="text-slate-600">· {s.app}</span>
                  </button>
                </li>
              ))}
            </ul>
          </details>
        )}
        <p className="text-xs text-slate-600">
          {data.team.name} · {data.member_count} members
        </p>
      </div>

      <div className="grid gap-4 md:grid-cols-[14rem_1fr]">
        {/* Its own stacking context: the page repaints around the message list on every scroll frame, and an
            opaque scroller (composited) that is not one was painted again each time (0.12 ms of 0.49 a frame). */}
        <aside className="isolate max-h-56 overflow-y-auto rounded-lg border border-slate-200 bg-white p-2 md:max-h-[70vh]">
          <Sidebar member={data} place={current} onPlace={onPlace} onPerson={switchTo} />
        </aside>
        <section
          aria-label={conversation ? `Conversation ${conversation.name}` : homeApp ? `${homeApp.name} Home` : "Workspace"}
          className="flex min-h-[24rem] min-w-0 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-3"
        >
          {conversation && (
            <>
              <h2 className="text-base font-semibold text-slate-900">
                {conversation.type === "public" ? "#" : conversation.type === "private" ? "🔒 " : ""}
                {conversation.name}
              </h2>
              <div className="flex min-h-0 flex-1 flex-col">
                {history.error ? (
                  <p role="alert" className="text-sm text-rose-800">
                    {history.error.message}
                  </p>
                ) : (
                  list.handlers && (
                    <MessageList
                      // Another conversation (or member) starts a list of its own: at its newest message, nothing unseen.
                      key={`${data.user}|${conversation.id}`}
                      label={conversation.type === "public" || conversation.type === "private" ? `#${conversation.name}` : conversation.name}
                      loaded={history.loaded}
                      hasOlder={history.hasOlder}
                      onOlder={history.loadOlder}
                      messages={messages}
                      handlers={list.handlers}
                      renderReplyBox={list.renderReplyBox}
                    />
                  )
                )}
              </div>
              <Composer
                label={`Message ${conversation.type === "public" || conversation.type === "private" ? "#" : ""}${conversation.name}`}
                apps={data.apps}
                busy={waiting}
                onPost={(text) => post(text)}
                onCommand={async (choice, text) =>
                  (await act(`${choice.command}`, "command", { command: choice.command, text, channel: conversation.id, app_id: choice.app_id })) !== null
                }
              />
            </>
          )}
          {homeApp && (
            <>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 className="text-base font-semibold text-slate-900">{homeApp.name}</h2>
                <button type="button" className={BUTTON.secondary} onClick={() => void openAppMessages(homeApp.app_id, homeApp.bot_user_id)}>
                  Messages
                </button>
              </div>
              {home ? (
                <ViewSurface
                  key={home.id + String(home.hash)}
                  view={home}
                  appName={homeApp.name}
                  handlers={{
                    ...directory,
                    onAction: (event) => act(`Click ${event.action.action_id}`, "click", { ...clickOf(event, home.blocks), view_id: home.id }),
                    suggest: suggestAt({ view_id: home.id }, home.blocks),
                  }}
                />
              ) : (
                <p className="text-sm text-slate-600">
                  This app has not published a Home for you yet: the platform sent it app_home_opened when you opened this tab.
                </p>
              )}
            </>
          )}
          <ActNote record={record} />
        </section>
      </div>

      {modal && (
        <ModalDialog
          key={modalStack[0]?.id ?? modal.id}
          stack={modalStack}
          names={{ ...directory, suggest: suggestAt({ view_id: modal.id }, modal.blocks) }}
          busy={switching || (viewInFlight !== null && modalStack.some((v) => v.id === viewInFlight))}
          onSubmit={(view, values) => act("Submit", "submit", { view_id: view.id, values: submittedValues(values) })}
          onBack={(view) => void act(modalStack.length > 1 ? "Back" : "Close the modal", "close-view", { view_id: view.id })}
          onCloseAll={(view) => void act("Close the modal", "close-view", { view_id: view.id, clear: true })}
          onAction={(view, event) => act(`Click ${event.action.action_id}`, "click", { ...clickOf(event, view.blocks), view_id: view.id })}
        />
      )}
    </div>
  );
}
