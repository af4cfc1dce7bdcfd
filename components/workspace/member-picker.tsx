"use client";

import { useEffect, useId, useState } from "react";
import { useWorkspacePeople } from "@/lib/swr/use-workspace";

/** How long typing rests before a search goes to the server. */
const SEARCH_DEBOUNCE_MS = 250;
const SELECT = "mt-0.5 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm";

interface Person {
  id: string;
  name: string;
}

/**
 * "You are": who the page acts as. The select offers the people the workspace read gave (the first
 * members, those who joined lately, and whoever is acting); when the workspace has more, "Find someone"
 * searches all of them by name or id (GET /api/workspace/people) as it is typed, so anyone can be picked.
 */
export function MemberPicker({
  actor,
  people,
  memberCount,
  onPick,
}: {
  actor: string | undefined;
  people: Person[];
  memberCount: number;
  onPick(id: string): void;
}) {
  const ids = useId();
  const [text, setText] = useState("");
  const [search, setSearch] = useState({ q: "", from: 0 });
  useEffect(() => {
    const timer = setTimeout(() => setSearch({ q: text.trim(), from: 0 }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const found = useWorkspacePeople(search.q, search.from);
  const results = search.q !== "" && text.trim() !== "" ? found.data : undefined;
  const pick = (id: string) => {
    setText("");
    onPick(id);
  };
  return (
    <div className="flex flex-wrap items-end gap-3">
      <label className="text-sm">
        <span className="block text-xs font-medium text-slate-700">You are</span>
        <select value={actor} onChange={(e) => pick(e.target.value)} className={SELECT}>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} ({p.id})
            </option>
          ))}
        </select>
      </label>
      {memberCount > people.length && (
        <div className="relative text-sm">
          <label htmlFor={`${ids}-find`} className="block text-xs font-medium text-slate-700">
            Find someone
          </label>
          <input
            id={`${ids}-find`}
            type="search"
            value={text}
            maxLength={100}
            placeholder={`Any of ${memberCount.toLocaleString("en-US")}: name or id`}
            aria-describedby={`${ids}-found`}
            onChange={(e) => setText(e.target.value)}
            className={`${SELECT} w-64`}
          />
          <p id={`${ids}-found`} role="status" className="text-xs text-slate-600">
            {found.error && text.trim() !== ""
              ? `The search failed: ${found.error.message}`
              : results
                ? results.people.length === 0
                  ? results.next === null
                    ? "No one matches."
                    : "No one matches yet."
                  : `${results.people.length} found${results.next === null ? "" : " so far"}.`
                : ""}
          </p>
          {results && (results.people.length > 0 || results.next !== null) && (
            <ul
              aria-label="People found"
              className="absolute z-10 mt-1 max-h-72 w-72 overflow-y-auto rounded-md border border-slate-200 bg-white p-1 shadow-lg"
            >
              {results.people.map((p) => (
                <li key={p.id}>
                  <button type="button" className="w-full rounded px-2 py-1 text-left hover:bg-slate-100 focus:bg-slate-100" onClick={() => pick(p.id)}>
                    {p.name} <span className="text-slate-600">({p.id})</span>
                  </button>
                </li>
              ))}
              {results.next !== null && (
                <li>
                  <button
                    type="button"
                    className="w-full rounded px-2 py-1 text-left text-emerald-800 hover:bg-slate-100"
                    onClick={() => setSearch({ q: search.q, from: results.next! })}
                  >
                    Look further
                  </button>
                </li>
              )}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
