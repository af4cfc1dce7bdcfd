/**
 * Said where an admin would find a control a member may not use (the server refuses it with 403): the page
 * shows what this person may do, as the installations page does, rather than a button that fails.
 */
export function AdminOnlyNote({ children }: { children: React.ReactNode }) {
  return <p className="text-xs text-slate-500">{children}</p>;
}
