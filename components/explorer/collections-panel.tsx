"use client";

import { useSearchParams } from "next/navigation";
import { useId, useState } from "react";
import type { ExplorerRequest } from "@/lib/explorer/params";
import { useCollection, useCollections, collectionActions } from "@/lib/swr/use-collections";
import { BUTTON, INPUT, Panel } from "@/components/ui/primitives";
import { CollectionDetail } from "./collection-detail";
import { SaveRequest } from "./save-request";
import type { InstallationOption } from "@/components/installations/use-installation-search";

interface ImportReport {
  name: string;
  count: number;
  skipped: Array<{ item: string; reason: string }>;
  notes: string[];
}

/** What an import kept, skipped and dropped, said in full: nothing leaves silently. */
function ImportSummary({ report }: { report: ImportReport }) {
  return (
    <div role="status" className="space-y-1 rounded-md border border-slate-200 bg-slate-50 p-2 text-xs text-slate-700">
      <p>
        Imported {report.count} request{report.count === 1 ? "" : "s"} into &quot;{report.name}&quot;.
      </p>
      {report.skipped.length > 0 && (
        <>
          <p className="font-medium text-amber-900">Skipped {report.skipped.length}:</p>
          <ul className="list-disc pl-4">
            {report.skipped.map((s, i) => (
              <li key={i}>
                {s.item}: {s.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {report.notes.length > 0 && (
        <ul aria-label="What the import dropped" className="list-disc pl-4">
          {report.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The explorer's collections: save the form's request under a name, the collections this person keeps or
 * their team shares (a share link in the page's URL, ?shared=…, opens one), one opened with its requests
 * and its runs, a new one, and import from a file.
 */
export function CollectionsPanel({
  request,
  installation,
  onOpenRequest,
}: {
  request: ExplorerRequest;
  /** The form's installation, which a collection runs against until another is chosen. */
  installation: InstallationOption | undefined;
  onOpenRequest(request: ExplorerRequest): void;
}) {
  const search = useSearchParams();
  const [link] = useState(() => search.get("shared"));
  const [opened, setOpened] = useState<{ id: string } | { link: string } | null>(link ? { link } : null);
  const { collections, error: listError, reload: reloadList } = useCollections();
  const { collection, error: openError, reload: reloadOne } = useCollection(opened);
  const [importReport, setImportReport] = useState<ImportReport | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [newName, setNewName] = useState("");
  const ids = { newName: useId(), file: useId() };

  const changed = () => {
    void reloadList();
    void reloadOne();
  };

  const importFile = async (file: File) => {
    setMessage(null);
    setImportReport(null);
    try {
      const answer = await collectionActions.importFile(await file.text());
      setImportReport({ name: answer.collection.name, count: answer.collection.requests.length, skipped: answer.skipped, notes: answer.notes });
      setOpened({ id: answer.collection.id });
      void reloadList();
    } catch (error) {
      setMessage((error as Error).message);
    }
  };

  return (
    <Panel title="Collections">
      <div className="space-y-4">
        <SaveRequest
          request={request}
          collections={collections ?? []}
          onSaved={(id) => {
            setOpened({ id });
            changed();
          }}
        />

        <div className="space-y-2 border-t border-slate-100 pt-3">
          {listError && (
            <p role="alert" className="text-xs text-rose-700">
              {listError.message}
            </p>
          )}
          {collections && collections.length === 0 && <p className="text-xs text-slate-600">No collections yet: save a request, or import a file.</p>}
          {collections && collections.length > 0 && (
            <ul aria-label="Your collections and your team's" className="space-y-0.5">
              {collections.map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    aria-current={opened && "id" in opened && opened.id === c.id ? "true" : undefined}
                    onClick={() => setOpened({ id: c.id })}
                    className="grid w-full grid-cols-[minmax(0,1fr)_auto] items-baseline gap-2 rounded px-2 py-1 text-left text-xs hover:bg-slate-100 aria-[current=true]:bg-emerald-50"
                  >
                    <span className="truncate">
                      <span className="font-medium text-slate-900">{c.name}</span>
                      {!c.mine && <span className="text-slate-600"> · {c.ownerName}</span>}
                      {c.sharedWithTeam && <span className="text-slate-600"> · shared</span>}
                    </span>
                    <span className="tabular-nums text-slate-600">
                      {c.requestCount} request{c.requestCount === 1 ? "" : "s"}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="flex flex-wrap items-end gap-2">
            <form
              className="flex items-end gap-1"
              onSubmit={(event) => {
                event.preventDefault();
                void collectionActions.create(newName).then(
                  ({ collection: made }) => {
                    setNewName("");
                    setOpened({ id: made.id });
                    void reloadList();
                  },
                  (error: Error) => setMessage(error.message),
                );
              }}
            >
              <span>
                <label htmlFor={ids.newName} className="block text-xs font-medium text-slate-700">
                  New collection
                </label>
                <input id={ids.newName} className={`${INPUT} !py-1 text-xs`} value={newName} maxLength={100} onChange={(e) => setNewName(e.target.value)} />
              </span>
              <button type="submit" className={`${BUTTON.secondary} !px-2 !py-1 text-xs`} disabled={newName.trim() === ""}>
                Create
              </button>
            </form>
            <label htmlFor={ids.file} className={`${BUTTON.secondary} !px-2 !py-1 cursor-pointer text-xs`}>
              Import a file…
            </label>
            <input
              id={ids.file}
              type="file"
              accept=".ndjson,.json,application/json,application/x-ndjson"
              className="sr-only"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = "";
                if (file) void importFile(file);
              }}
            />
          </div>
          {message && (
            <p role="alert" className="text-xs text-rose-700">
              {message}
            </p>
          )}
          {importReport && <ImportSummary report={importReport} />}
        </div>

        {opened && (
          <div className="border-t border-slate-100 pt-3">
            {openError ? (
              <p role="alert" className="text-xs text-rose-700">
                {openError.message}
              </p>
            ) : collection ? (
              <CollectionDetail
                key={collection.id}
                collection={collection}
                formInstallation={installation}
                onOpenRequest={onOpenRequest}
                onChanged={changed}
                onClosed={() => setOpened(null)}
              />
            ) : (
              <p className="text-xs text-slate-600">Opening the collection…</p>
            )}
          </div>
        )}
      </div>
    </Panel>
  );
}
