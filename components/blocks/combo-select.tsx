"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useBlockHandlers } from "./block-context";
import { ComboList } from "./combo-list";
import type { ElementProps } from "./element-props";
import { fieldClass } from "./field-style";
import {
  directoryEntries,
  initialEntries,
  initialSuggestState,
  matching,
  minQueryLength,
  statusText,
  suggestAnswered,
  suggestTyped,
  type ComboKind,
  type EntryGroup,
  type SelectEntry,
  type SuggestState,
} from "./select-options";
import { asString, textOf } from "./shape";

/** How long typing pauses before the app is asked (the platform's client waits too, rather than ask per key). */
const SUGGEST_DEBOUNCE_MS = 250;

/**
 * A users, conversations, channels or external select (single or multi) as a combobox: the member types, the
 * list narrows (the workspace's members and conversations) or the app is asked (external), and a pick is the
 * element's choice, with the app's option whole for an external select. A multi select shows its picks as
 * removable chips. While the element's act is in flight (`busy`) it takes no other choice.
 */
export function ComboSelect({ element, naming, onChoice, onEdit, busy, kind, blockId }: ElementProps & { kind: ComboKind; blockId: string }) {
  const handlers = useBlockHandlers();
  const id = useId();
  const listId = `${id}-list`;
  const type = asString(element.type) ?? "";
  const multi = type.startsWith("multi_");
  const min = minQueryLength(element);
  const canAsk = handlers.suggest !== undefined;
  const [start] = useState(() => initialEntries(kind, element, handlers));
  const [chosen, setChosen] = useState<SelectEntry[]>(start.entries);
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [suggestion, setSuggestion] = useState<SuggestState>(() => initialSuggestState(canAsk));
  // The last question asked, read by answers that arrive later: only the last one's answer is shown.
  const asking = useRef(suggestion);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const popup = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // default_to_current_conversation: the view's state holds the conversation the member is in, as if picked.
    if (start.defaulted) onEdit(multi ? start.entries.map((e) => e.value) : (start.entries[0]?.value ?? null));
    return () => clearTimeout(timer.current);
    // Once, when the select appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const setAsking = (next: SuggestState) => {
    asking.current = next;
    setSuggestion(next);
  };
  const ask = (typed: string) => {
    const { state, ask: shouldAsk } = suggestTyped(asking.current, typed, min, canAsk);
    setAsking(state);
    clearTimeout(timer.current);
    if (!shouldAsk || !handlers.suggest) return;
    const suggest = handlers.suggest;
    timer.current = setTimeout(() => {
      suggest({ action_id: asString(element.action_id) ?? "", block_id: blockId }, typed).then(
        (answer) => setAsking(suggestAnswered(asking.current, state.asked, answer)),
        (error: unknown) => setAsking(suggestAnswered(asking.current, state.asked, { error: error instanceof Error ? error.message : String(error) })),
      );
    }, SUGGEST_DEBOUNCE_MS);
  };

  const directory = kind === "external" ? [] : directoryEntries(kind, element, handlers);
  const labelOf = (entry: SelectEntry) => directory.find((e) => e.value === entry.value)?.label ?? entry.label;
  const groups: EntryGroup[] = kind === "external" ? suggestion.groups : [{ label: null, entries: matching(directory, query) }];
  const listed = groups.flatMap((g) => g.entries);
  const current = open ? listed[Math.min(active, listed.length - 1)] : undefined;
  const isChosen = (entry: SelectEntry) => chosen.some((c) => c.value === entry.value);
  const hasDirectory = kind === "users" ? handlers.members !== undefined : handlers.conversations !== undefined;
  const status = open ? statusText(kind, suggestion, min, query, listed.length, hasDirectory) : null;
  const showing = open && (listed.length > 0 || status !== null);
  useEffect(() => {
    // The list shows whole within the scrolling message list or modal body it opened in (they scroll to it).
    if (showing) popup.current?.scrollIntoView?.({ block: "nearest" });
  }, [showing, listed.length]);

  const openList = () => {
    if (busy || open) return;
    setOpen(true);
    setActive(0);
    // An external select that asks from the first character on (min_query_length 0) asks as it opens.
    if (kind === "external" && asking.current.status === "short" && query.length >= min) ask(query);
  };
  const close = () => {
    setOpen(false);
    setQuery("");
    if (kind !== "external") return;
    // What the app offered for the last query is not shown for the next: the list starts over, and an answer on its way is dropped.
    clearTimeout(timer.current);
    setAsking({ ...initialSuggestState(canAsk), asked: asking.current.asked + 1 });
  };
  const report = (next: SelectEntry[]) => {
    const options = kind === "external" ? next.flatMap((e) => (e.option ? [e.option] : [])) : undefined;
    onChoice(multi ? next.map((e) => e.value) : (next[0]?.value ?? null), options);
  };
  const pick = (entry: SelectEntry) => {
    if (busy) return;
    const next = multi ? (isChosen(entry) ? chosen.filter((c) => c.value !== entry.value) : [...chosen, entry]) : [entry];
    setChosen(next);
    if (multi) setQuery("");
    else close();
    report(next);
  };
  const remove = (entry: SelectEntry) => {
    if (busy) return;
    const next = chosen.filter((c) => c.value !== entry.value);
    setChosen(next);
    report(next);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!open) return openList();
      if (listed.length > 0) setActive((a) => (Math.min(a, listed.length - 1) + (e.key === "ArrowDown" ? 1 : listed.length - 1)) % listed.length);
    } else if (e.key === "Enter" && open) {
      e.preventDefault();
      if (current) pick(current);
    } else if (e.key === "Escape" && open) {
      // Closes the list only: not the modal around it.
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === "Backspace" && multi && query === "" && chosen.length > 0) {
      remove(chosen.at(-1)!);
    }
  };

  const placeholder = textOf(element.placeholder) || (multi ? "Select items" : "Select an item");
  const shown = !multi && !open ? (chosen[0] ? labelOf(chosen[0]) : "") : query;
  // The list is named as its field is: by the input block's label, else the element's own name.
  const listName = naming["aria-labelledby"] ? { "aria-labelledby": naming["aria-labelledby"] } : { "aria-label": naming["aria-label"] ?? placeholder };
  return (
    <div className={`relative ${naming.id !== undefined ? "w-full" : "inline-block w-64 max-w-full"}`} aria-busy={busy || undefined}>
      {multi && chosen.length > 0 && (
        <ul aria-label="Chosen" className="mb-1 flex flex-wrap gap-1">
          {chosen.map((entry) => (
            <li
              key={entry.value}
              className="inline-flex items-center gap-1 rounded-full border border-slate-300 bg-slate-100 py-0.5 pl-2 pr-1 text-sm text-slate-800"
            >
              <bdi>{labelOf(entry)}</bdi>
              <button
                type="button"
                aria-label={`Remove ${labelOf(entry)}`}
                aria-disabled={busy || undefined}
                onClick={() => remove(entry)}
                className="rounded-full px-1 text-slate-600 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-sky-600"
              >
                <span aria-hidden>×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        {...naming}
        type="text"
        role="combobox"
        aria-expanded={showing}
        aria-controls={showing ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={current ? `${id}-${listed.indexOf(current)}` : undefined}
        aria-disabled={busy || undefined}
        readOnly={busy}
        autoComplete="off"
        value={shown}
        placeholder={!multi && open && chosen[0] ? labelOf(chosen[0]) : placeholder}
        onFocus={openList}
        onClick={openList}
        onBlur={close}
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
          setActive(0);
          if (kind === "external") ask(e.target.value);
        }}
        onKeyDown={onKeyDown}
        className={`${fieldClass(naming.id !== undefined)} w-full ${busy ? "cursor-progress opacity-70" : ""}`}
      />
      {busy && (
        <span role="status" className="absolute right-2 top-1.5 text-xs text-slate-600">
          Sending…
        </span>
      )}
      {showing && (
        <div
          ref={popup}
          // Over what follows, so nothing moves when it closes (a click on Submit lands where the person aimed).
          className="absolute left-0 right-0 z-20 mt-1 rounded-md border border-slate-200 bg-white shadow-lg"
        >
          <ComboList
            id={id}
            listId={listId}
            groups={groups}
            name={listName}
            multi={multi}
            active={current}
            isChosen={isChosen}
            labelOf={labelOf}
            onPick={pick}
            onHover={setActive}
          />
          {status && (
            <p
              role={kind === "external" && suggestion.status === "failed" ? "alert" : "status"}
              className="border-t border-slate-100 px-3 py-2 text-sm text-slate-700 first:border-t-0"
            >
              {status}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
