/**
 * What apps keep in a workspace beside its channels, as GET {base}/admin/state shows it: the user groups
 * (usergroups.*) and the assistant threads apps set a status, title or prompts on (assistant.threads.*).
 * Members never see the latter in the emulator, so the admin state is where a developer checks them.
 */
import { wireUsergroup } from "../web-api/methods/usergroups";
import type { Workspace } from "../workspace/workspace";

/** Every user group, disabled ones too (their `date_delete` says so), with their members, as usergroups.list answers. */
export function describeUsergroups(ws: Workspace) {
  return [...ws.usergroups.values()].map((group) => wireUsergroup(group, { users: true, count: true }));
}

export function describeAssistantThreads(ws: Workspace) {
  return [...ws.assistantThreads.values()].map((thread) => ({
    channel_id: thread.channelId,
    thread_ts: thread.threadTs,
    app_id: thread.appId,
    status: thread.status,
    loading_messages: thread.loadingMessages,
    title: thread.title,
    suggested_prompts: thread.prompts,
    prompts_title: thread.promptsTitle,
  }));
}
