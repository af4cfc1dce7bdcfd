/**
 * Opening an im or mpim, shared by conversations.open and chat.postMessage (which posts to a user id's DM,
 * opening it as conversations.open would).
 */
import type { EmulatorState } from "../types";
import { createConversation, findDirect } from "./channels";
import { memberAt, memberIndexOf } from "./members";
import { addMember } from "./membership";
import type { Channel, Workspace } from "./workspace";

/** Opens (or finds again) the im or mpim of these people; an mpim is named after them, as on the platform. */
export function openDirect(state: EmulatorState, ws: Workspace, people: string[], created: number, baseUrl: string): { channel: Channel; existed: boolean } {
  const directKey = [...people].sort().join(",");
  const existing = findDirect(ws, directKey);
  if (existing) return { channel: existing, existed: true };
  const type = people.length <= 2 ? "im" : "mpim";
  const names = people.map((id) => memberAt(ws, memberIndexOf(ws, id), baseUrl).name as string);
  const channel = createConversation(ws, { type, name: `mpdm-${names.join("--")}-1`, creator: people[0] as string, created, directKey });
  for (const id of people) addMember(state, ws, channel, id);
  return { channel, existed: false };
}
