import "server-only";
import { z } from "zod";
import { requireAdmin } from "@/lib/access/viewer";
import { findWorkspacePeople, readMemberViews, readWorkspaceHistory, readWorkspaceMember } from "@/lib/emulator-admin/workspace";
import { AppError } from "@/lib/http/app-error";
import type { Viewer } from "@/lib/viewer";
import { ACTS, runAct, type ActName } from "./acts";
import { requireWorkspaceEmulator } from "./target";

/**
 * The Workspace page's server side: a person of the console acts as a member of the emulated workspace.
 * Admins only when people sign in: a member of the workspace reads every conversation and acts as anyone.
 * Only with an emulator upstream (not_emulator otherwise): the real platform has no admin surface.
 */

const WHY = "act as a member of the emulated workspace: it reads every conversation and acts as anyone";

const Id = z.string().regex(/^[A-Z][A-Z0-9]{1,31}$/, "an id such as U0123ABCD");
export const MemberQuery = z.object({ user: Id.optional(), team: Id.optional() });
export const PeopleQuery = MemberQuery.extend({ people: z.coerce.number().int().min(1).max(200).optional() });
/** Who to act as, found by name or id (the page's "Find someone"); `from` goes on where the last read stopped. */
export const PeopleSearchQuery = z.object({
  team: Id.optional(),
  q: z.string().trim().min(1).max(100),
  from: z.coerce.number().int().min(0).optional(),
});
const Ts = z.string().regex(/^\d{1,12}\.\d{1,6}$/, "a message ts such as 1700000000.000100");
export const HistoryQuery = MemberQuery.extend({
  channel: Id,
  /** An older page: the next_cursor of the page before (the emulator answers invalid_cursor for one it did not give). */
  cursor: z.string().min(1).max(500).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  /** Only the thread this message is in: what the live stream said changed. */
  message: Ts.optional(),
});

async function target(viewer: Viewer) {
  requireAdmin(viewer, WHY);
  return requireWorkspaceEmulator();
}

export async function loadWorkspaceMember(viewer: Viewer, query: z.infer<typeof PeopleQuery>) {
  return readWorkspaceMember(await target(viewer), { user: query.user, team_id: query.team, people: query.people });
}

export async function searchWorkspacePeople(viewer: Viewer, query: z.infer<typeof PeopleSearchQuery>) {
  return findWorkspacePeople(await target(viewer), { team_id: query.team, q: query.q, from: query.from });
}

export async function loadWorkspaceHistory(viewer: Viewer, query: z.infer<typeof HistoryQuery>) {
  const { team, ...rest } = query;
  return readWorkspaceHistory(await target(viewer), { ...rest, team_id: team });
}

export async function loadMemberViews(viewer: Viewer, query: z.infer<typeof MemberQuery>) {
  return readMemberViews(await target(viewer), { user: query.user, team_id: query.team });
}

/** One act by its name (the route's last segment), its body read by the act's schema (400 invalid_request otherwise). */
export async function actAsMember(viewer: Viewer, name: string, body: unknown) {
  if (!Object.hasOwn(ACTS, name)) throw new AppError("invalid_request", { message: `No act "${name}": one of ${Object.keys(ACTS).join(", ")}.` });
  const act = name as ActName;
  const parsed = ACTS[act].body.safeParse(body);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
    throw new AppError("invalid_request", { message: detail });
  }
  return runAct(await target(viewer), act, parsed.data);
}
