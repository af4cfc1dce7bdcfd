"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { CollectionView, SavedRequestView } from "@/lib/collections/universal/model";
import { ndjsonFileName } from "@/lib/collections/universal/ndjson";
import type { ExplorerRequest } from "@/lib/explorer/params";
import { collectionActions, exportCollectionText } from "@/lib/swr/use-collections";
import { downloadFile } from "@/components/download-file";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { BUTTON, INPUT } from "@/components/ui/primitives";
import { InstallationField } from "@/components/installations/installation-field";
import type { InstallationOption } from "@/components/installations/use-installation-search";
import { RunResults } from "./run-results";
import { SavedRequestRow } from "./saved-request-row";
import { useCollectionRun } from "./use-collection-run";
import { useRunTarget } from "./use-run-target";

/** The saved request as the explorer's form holds it, aimed at the form's installation. */
const asExplorerRequest = (r: SavedRequestView, installation: string): ExplorerRequest => ({
  method: r.method,
  installation,
  tokenKind: r.tokenKind,
  httpMethod: r.httpMethod,
  encoding: r.encoding,
  cursor: "",
  limit: "",
  extra: r.args.map(({ key, value }) => ({ key, value })),
});

/** Sharing: with the team (read-only for them) and by a link shown once; the owner's and admins' only. */
function Sharing({ collection, onChanged, act }: { collection: CollectionView; onChanged(): void; act(work: () => Promise<unknown>): Promise<boolean> }) {
  const linkId = useId();
  const [link, setLink] = useState<string | null>(null);
  return (
    <div className="space-y-2">
      <label className="flex items-center gap-2 text-xs text-slate-700">
        <input
          type="checkbox"
          checked={collection.sharedWithTeam}
          onChange={(e) => void act(() => collectionActions.update(collection.id, { sharedWithTeam: e.target.checked })).then(onChanged)}
        />
        Shared with my team (read-only for them)
      </label>
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <button
          type="button"
          className={`${BUTTON.secondary} !px-2 !py-1 text-xs`}
          onClick={() =>
            void act(async () => {
              const made = await collectionActions.createLink(collection.id);
              setLink(new URL(made.path, window.location.origin).toString());
            }).then(onChanged)
          }
        >
          {collection.hasLink ? "New link" : "Create a link"}
        </button>
        {collection.hasLink && (
          <button
            type="button"
            className={`${BUTTON.danger} !px-2 !py-1 text-xs`}
            onClick={() =>
              void act(async () => {
                await collectionActions.revokeLink(collection.id);
                setLink(null);
              }).then(onChanged)
            }
          >
            Revoke the link
          </button>
        )}
        {collection.hasLink && !link && <span className="text-slate-600">A link is live (the console keeps only its fingerprint).</span>}
      </div>
      {link && (
        <div>
          <label htmlFor={linkId} className="block text-xs font-medium text-slate-700">
            Share link (copy it now: it is shown once; teammates who are signed in open the collection with it)
          </label>
          <input id={linkId} readOnly className={`${INPUT} font-mono text-xs`} value={link} onFocus={(e) => e.target.select()} />
        </div>
      )}
    </div>
  );
}

/** An opened collection: its requests in order (open, run, move, rename, delete, bind), running it against an installation, sharing, export and delete. */
export function CollectionDetail({
  collection,
  formInstallation,
  onOpenRequest,
  onChanged,
  onClosed,
}: {
  collection: CollectionView;
  /** The explorer form's installation: a saved request opens aimed at it, and the run starts against it. */
  formInstallation: InstallationOption | undefined;
  onOpenRequest(request: ExplorerRequest): void;
  onChanged(): void;
  onClosed(): void;
}) {
  const ids = { rename: useId() };
  const runAgainst = useRunTarget(formInstallation);
  const target = runAgainst.target;
  // Said as it was when the run started: the search may no longer show its installation.
  const [runLabel, setRunLabel] = useState("");
  const [continueOnError, setContinueOnError] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const focusAfterMove = useRef<{ name: string; dir: "up" | "down"; order: string } | null>(null);
  const { run, start } = useCollectionRun();
  const runAgainstTarget = (requests: SavedRequestView[]) => {
    setRunLabel(runAgainst.labelOf(target));
    void start(requests, target, continueOnError);
  };

  // A request moved with its button keeps the focus on that button in its new place, so the keys can move it again.
  // At the top or the bottom, where that button is disabled, the focus goes to its other one.
  useEffect(() => {
    const moved = focusAfterMove.current;
    // Once the list shows the new order: a button focused before its row moves loses the focus when it does.
    if (!moved || busy || collection.requests.map((r) => r.id).join(" ") !== moved.order) return;
    const find = (dir: string) => document.querySelector<HTMLButtonElement>(`[aria-label="${CSS.escape(`Move ${moved.name} ${dir}`)}"]`);
    const button = [find(moved.dir), find(moved.dir === "up" ? "down" : "up")].find((b) => b && !b.disabled);
    if (button) {
      button.focus();
      focusAfterMove.current = null;
    }
  }, [collection, busy]);

  const act = async (work: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await work();
      return true;
    } catch (failure) {
      setError((failure as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const changed = (ok: boolean) => {
    if (ok) onChanged();
  };

  const move = (index: number, by: -1 | 1) => {
    const order = collection.requests.map((r) => r.id);
    const [moved] = order.splice(index, 1);
    order.splice(index + by, 0, moved!);
    const name = collection.requests[index]!.name;
    focusAfterMove.current = { name, dir: by < 0 ? "up" : "down", order: order.join(" ") };
    void act(() => collectionActions.reorder(collection.id, order)).then(changed);
  };

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        {renaming === null ? (
          <h3 className="text-sm font-semibold text-slate-900">
            {collection.name}
            {!collection.mine && <span className="ml-2 text-xs font-normal text-slate-600">by {collection.ownerName}</span>}
            {!collection.editable && <span className="ml-2 text-xs font-normal text-slate-600">(read-only)</span>}
          </h3>
        ) : (
          <form
            className="flex items-center gap-1"
            onSubmit={(event) => {
              event.preventDefault();
              void act(() => collectionActions.update(collection.id, { name: renaming })).then((ok) => {
                if (ok) setRenaming(null);
                changed(ok);
              });
            }}
          >
            <label htmlFor={ids.rename} className="sr-only">
              New name of the collection
            </label>
            <input
              id={ids.rename}
              className={`${INPUT} !py-1 text-sm`}
              value={renaming}
              maxLength={100}
              onChange={(e) => setRenaming(e.target.value)}
              autoFocus
            />
            <button type="submit" className={`${BUTTON.secondary} !px-2 !py-1 text-xs`} disabled={renaming.trim() === ""}>
              Rename
            </button>
          </form>
        )}
        <div className="flex flex-wrap gap-1">
          {collection.editable && renaming === null && (
            <button type="button" className={`${BUTTON.ghost} !px-2 !py-1 text-xs`} onClick={() => setRenaming(collection.name)}>
              Rename<span className="sr-only"> the collection</span>
            </button>
          )}
          <button
            type="button"
            className={`${BUTTON.ghost} !px-2 !py-1 text-xs`}
            onClick={() =>
              void act(async () => downloadFile(ndjsonFileName(collection.name), "application/x-ndjson", await exportCollectionText(collection.id)))
            }
          >
            Export
          </button>
          {collection.editable && (
            <button type="button" className={`${BUTTON.ghost} !px-2 !py-1 text-xs !text-rose-700`} onClick={() => setDeleting(true)}>
              Delete<span className="sr-only"> the collection</span>
            </button>
          )}
          <button type="button" className={`${BUTTON.ghost} !px-2 !py-1 text-xs`} onClick={onClosed}>
            Close
          </button>
        </div>
      </div>

      {error && (
        <p role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-2 py-1 text-xs text-rose-800">
          {error}
        </p>
      )}

      {collection.editable && <Sharing collection={collection} onChanged={onChanged} act={act} />}

      {collection.requests.length === 0 ? (
        <p className="text-xs text-slate-600">No requests yet: save the form&apos;s request into this collection.</p>
      ) : (
        <ol aria-label={`Requests of ${collection.name}`} className="space-y-2">
          {collection.requests.map((r, i) => (
            <SavedRequestRow
              key={r.id}
              request={r}
              index={i}
              count={collection.requests.length}
              editable={collection.editable}
              busy={busy || run?.running === true}
              onOpen={() => onOpenRequest(asExplorerRequest(r, formInstallation?.id || target))}
              onRun={() => runAgainstTarget([r])}
              onMove={(by) => move(i, by)}
              onRename={(name) => act(() => collectionActions.updateRequest(collection.id, r.id, { name })).then(changed)}
              onDelete={() => void act(() => collectionActions.removeRequest(collection.id, r.id)).then(changed)}
              onBindings={(bindings) => act(() => collectionActions.updateRequest(collection.id, r.id, { bindings })).then(changed)}
            />
          ))}
        </ol>
      )}

      {collection.requests.length > 0 && (
        <div className="space-y-2 rounded-md bg-slate-50 p-2">
          <InstallationField
            searchLabel="Find the workspace for the run"
            label="Run against"
            value={target}
            installations={runAgainst.installations}
            picker={runAgainst.picker}
            onChoose={runAgainst.choose}
          />
          <label className="flex items-center gap-2 text-xs text-slate-700">
            <input type="checkbox" checked={continueOnError} onChange={(e) => setContinueOnError(e.target.checked)} />
            Go on after a step that answers ok: false
          </label>
          <button
            type="button"
            className={BUTTON.primary}
            disabled={target === "" || run?.running === true}
            onClick={() => runAgainstTarget(collection.requests)}
          >
            {run?.running ? "Running…" : "Run the collection"}
          </button>
        </div>
      )}

      {run && <RunResults run={run} installationLabel={runLabel || runAgainst.labelOf(run.installation)} />}

      <ConfirmDialog
        open={deleting}
        title={`Delete ${collection.name}?`}
        confirmLabel="Delete the collection"
        busy={busy}
        onClose={() => setDeleting(false)}
        onConfirm={() =>
          void act(() => collectionActions.remove(collection.id)).then((ok) => {
            setDeleting(false);
            if (ok) onClosed();
            changed(ok);
          })
        }
      >
        Its {collection.requests.length} saved requests go with it, for everyone it is shared with. Export it first to keep a file.
      </ConfirmDialog>
    </div>
  );
}
