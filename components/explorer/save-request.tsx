"use client";

import { useId, useState } from "react";
import { credentialProblem, type CollectionSummary, type RequestFields } from "@/lib/collections/universal/model";
import { requestParams, type ExplorerRequest } from "@/lib/explorer/params";
import { BUTTON, INPUT } from "@/components/ui/primitives";
import { collectionActions } from "@/lib/swr/use-collections";

const NEW = "__new__";

/** The form's request as a saved request's fields: its arguments as it sends them (never a token: the explorer drops credentials already). */
export function savedFieldsOf(request: ExplorerRequest, name: string): RequestFields {
  const args = Object.entries(requestParams(request)).map(([key, value]) => ({ key, value }));
  return { name, method: request.method, httpMethod: request.httpMethod, encoding: request.encoding, tokenKind: request.tokenKind, args, bindings: [] };
}

/** Saves the form's request under a name typed, into one of the viewer's collections or a new one. */
export function SaveRequest({
  request,
  collections,
  onSaved,
}: {
  request: ExplorerRequest;
  collections: CollectionSummary[];
  onSaved(collectionId: string): void;
}) {
  const ids = { name: useId(), into: useId(), newName: useId() };
  const editable = collections.filter((c) => c.editable && c.mine);
  const [name, setName] = useState("");
  const [into, setInto] = useState<string>("");
  const [newName, setNewName] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const target = into || editable[0]?.id || NEW;
  const tokenProblem = savedFieldsOf(request, name)
    .args.map(credentialProblem)
    .find((p) => p !== null);

  const save = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const collectionId = target === NEW ? (await collectionActions.create(newName)).collection.id : target;
      await collectionActions.addRequest(collectionId, savedFieldsOf(request, name));
      setMessage({ tone: "ok", text: `Saved "${name.trim()}".` });
      setName("");
      setNewName("");
      setInto(collectionId);
      onSaved(collectionId);
    } catch (error) {
      setMessage({ tone: "error", text: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="space-y-2"
      aria-label="Save the request"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div>
        <label htmlFor={ids.name} className="block text-xs font-medium text-slate-700">
          Save <span className="font-mono">{request.method}</span> as
        </label>
        <input
          id={ids.name}
          className={INPUT}
          value={name}
          maxLength={100}
          placeholder="A name, e.g. Create a channel"
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="grid gap-2 sm:grid-cols-2">
        <div>
          <label htmlFor={ids.into} className="block text-xs font-medium text-slate-700">
            Into
          </label>
          <select id={ids.into} className={INPUT} value={target} onChange={(e) => setInto(e.target.value)}>
            {editable.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
            <option value={NEW}>A new collection…</option>
          </select>
        </div>
        {target === NEW && (
          <div>
            <label htmlFor={ids.newName} className="block text-xs font-medium text-slate-700">
              New collection&apos;s name
            </label>
            <input id={ids.newName} className={INPUT} value={newName} maxLength={100} onChange={(e) => setNewName(e.target.value)} />
          </div>
        )}
      </div>
      {tokenProblem && (
        <p role="alert" className="text-xs text-rose-700">
          The argument {tokenProblem}: remove it to save (a saved request never keeps a token).
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="submit"
          className={BUTTON.primary}
          disabled={busy || name.trim() === "" || (target === NEW && newName.trim() === "") || tokenProblem !== undefined}
        >
          {busy ? "Saving…" : "Save request"}
        </button>
        {message && (
          <p role={message.tone === "error" ? "alert" : "status"} className={`text-xs ${message.tone === "error" ? "text-rose-700" : "text-emerald-700"}`}>
            {message.text}
          </p>
        )}
      </div>
    </form>
  );
}
