"use client";

import { createContext, useContext } from "react";
import type { ActionEvent, StateValue } from "./actions";

/** What the renderer's controls report to, and how mentions are named, for every block below it. */
export interface BlockHandlers {
  /** A member's action outside an input block (or in one with dispatch_action): a block_actions entry. */
  onAction?(event: ActionEvent): void;
  /** A value entered in a view (any stateful element): its `state.values` entry. */
  onValue?(blockId: string, actionId: string, value: StateValue): void;
  /** A member's or channel's name, when the page knows it; the id is shown otherwise. */
  userName?(id: string): string | undefined;
  channelName?(id: string): string | undefined;
  /** Errors a view_submission's `response_action: "errors"` put under input blocks, by block_id. */
  errors?: Readonly<Record<string, string>>;
}

export const BlockContext = createContext<BlockHandlers>({});

export const useBlockHandlers = () => useContext(BlockContext);
