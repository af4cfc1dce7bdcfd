"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { ActionEvent, StateValue } from "./actions";
import type { Json } from "./shape";

/** A member of the workspace as a users select lists it (a bot user is one too). */
export interface DirectoryMember {
  id: string;
  name: string;
  bot?: boolean;
}

/** A conversation the member can see, as conversations and channels selects list it. */
export interface DirectoryConversation {
  id: string;
  name: string;
  type: "public" | "private" | "im" | "mpim";
  is_archived?: boolean;
  is_ext_shared?: boolean;
  /** A DM's or group DM's other members. */
  with?: readonly string[];
}

/** What the app answered a block_suggestion with, or why there is nothing to show. */
export type SuggestAnswer = { options: Json[] } | { option_groups: Json[] } | { error: string };

/** What the renderer's controls report to, and how mentions are named, for every block below it. */
export interface BlockHandlers {
  /**
   * A member's action outside an input block (or in one with dispatch_action): a block_actions entry. While
   * the promise it may return is pending, the control is busy and takes no second act.
   */
  onAction?(event: ActionEvent): void | Promise<unknown>;
  /** A value entered in a view (any stateful element): its `state.values` entry. */
  onValue?(blockId: string, actionId: string, value: StateValue): void;
  /** A member's or channel's name, when the page knows it; the id is shown otherwise. */
  userName?(id: string): string | undefined;
  channelName?(id: string): string | undefined;
  /** The workspace's members and the member's conversations, which users, conversations and channels selects list. */
  members?: readonly DirectoryMember[];
  conversations?: readonly DirectoryConversation[];
  /** The conversation the member is in (a conversations select's `default_to_current_conversation`). */
  currentConversation?: string;
  /**
   * Asks the app for an external select's options for what the member typed (block_suggestion). Absent
   * where there is no app to ask (the explorer's preview).
   */
  suggest?(element: { action_id: string; block_id: string }, value: string): Promise<SuggestAnswer>;
  /** Errors a view_submission's `response_action: "errors"` put under input blocks, by block_id. */
  errors?: Readonly<Record<string, string>>;
}

export const BlockContext = createContext<BlockHandlers>({});

export const useBlockHandlers = () => useContext(BlockContext);

/** Handlers for the blocks below, over those of the blocks around (a page's lists reach every message and view in it). */
export function BlockScope({ value, children }: { value: BlockHandlers; children: ReactNode }) {
  const outer = useBlockHandlers();
  // A handler left undefined here keeps the one around it.
  const own = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  return <BlockContext.Provider value={{ ...outer, ...own }}>{children}</BlockContext.Provider>;
}
