/**
 * Who may read and change a collection (browser-safe: the page offers only what a person may do; the
 * routes ask again before they act). Its owner and admins may do everything; a member of the owner's
 * workspace may read it when it is shared with the team, or open it by its link while the link lives. A
 * member of another workspace may not, link or not.
 */
import { isAdmin, type Viewer } from "@/lib/viewer";

export interface CollectionAccessFacts {
  owner: string | null;
  teamId: string | null;
  sharedWithTeam: boolean;
}

/** The owner key a viewer keeps collections under: `<team id>:<user id>`, or null for the operator of a console without sign-in. */
export function collectionOwnerOf(viewer: Viewer): string | null {
  return viewer.kind === "member" ? `${viewer.teamId}:${viewer.userId}` : null;
}

export function ownsCollection(viewer: Viewer, collection: CollectionAccessFacts): boolean {
  return collection.owner === collectionOwnerOf(viewer);
}

export function mayEditCollection(viewer: Viewer, collection: CollectionAccessFacts): boolean {
  return isAdmin(viewer) || ownsCollection(viewer, collection);
}

/** `byLink`: the viewer came with the collection's live share link. */
export function mayReadCollection(viewer: Viewer, collection: CollectionAccessFacts, byLink = false): boolean {
  if (mayEditCollection(viewer, collection)) return true;
  const teammate = viewer.kind === "member" && collection.teamId !== null && viewer.teamId === collection.teamId;
  return teammate && (collection.sharedWithTeam || byLink);
}
