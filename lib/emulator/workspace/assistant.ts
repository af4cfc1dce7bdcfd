/**
 * What apps set on a workspace's messages as an AI assistant: a thread's status, title and suggested
 * prompts (assistant.threads.*), and the messages being streamed (chat.startStream/appendStream/stopStream),
 * keyed `channel:ts`. A leaf module, so workspace.ts can hold its state.
 */

export interface AssistantThread {
  channelId: string;
  threadTs: string;
  appId: string;
  /** Empty when cleared. */
  status: string;
  loadingMessages: string[];
  title: string;
  prompts: { title: string; message: string }[];
  promptsTitle: string;
}

export interface MessageStream {
  channelId: string;
  ts: string;
  /** Who started it: only they append to it and stop it. */
  appId: string;
  userId: string;
  state: "streaming" | "stopped";
  startedAt: number;
  /** The last append (or the stop): a stream idle for 5 minutes of the emulator's clock ends by itself. */
  lastActivityAt?: number;
  /** The chunks other than markdown text (task and plan updates), in order, as given. */
  chunks: unknown[];
}

/** The key of a thread or a stream. */
export const messageKey = (channelId: string, ts: string) => `${channelId}:${ts}`;
