/**
 * A member's profile as they changed it (the admin surface acting as a member: `POST {base}/admin/act/profile`):
 * generated members are a pure function of the seed, so their changes are kept beside them, on the workspace's
 * own record, and laid over the generated record wherever it is read (users.info, users.list, events).
 */
import { touch } from "../core/change-tracking";
import type { ProfileEdit, Workspace } from "./workspace";

/** The profile fields a member edits in the client. */
export const EDITABLE_PROFILE_FIELDS = [
  "real_name",
  "display_name",
  "title",
  "phone",
  "status_text",
  "status_emoji",
] as const satisfies readonly (keyof ProfileEdit)[];
type EditableField = (typeof EDITABLE_PROFILE_FIELDS)[number];

/** Records a member's change to their profile. */
export function editProfile(ws: Workspace, userId: string, changes: Partial<Record<EditableField, string>>, nowSeconds: number): void {
  const edits = (ws.profileEdits ??= {});
  edits[userId] = { ...edits[userId], ...changes, updated: nowSeconds };
  touch(ws);
}

/** Lays a member's changes over their generated record (in place), `normalize` as the generator writes `*_normalized`. */
export function applyProfileEdit(ws: Workspace, member: Record<string, unknown>, normalize: (text: string) => string): void {
  const edit = ws.profileEdits?.[String(member.id)];
  if (!edit) return;
  const profile = member.profile as Record<string, unknown>;
  for (const field of EDITABLE_PROFILE_FIELDS) {
    const value = edit[field];
    if (value === undefined) continue;
    profile[field] = value;
    if (field === "real_name" || field === "display_name") profile[`${field}_normalized`] = normalize(value);
  }
  if (edit.real_name !== undefined) member.real_name = edit.real_name;
  member.updated = edit.updated;
}
