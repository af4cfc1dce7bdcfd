"use client";

import { useEffect, useMemo, useState } from "react";
import type { InstallationView } from "@/lib/installations/universal/view";
import { useSession } from "@/lib/swr/use-session";

/** What a picker's search typed, and what it found of how many this person sees. */
export interface InstallationPicker {
  text: string;
  setText(text: string): void;
  /** How many the search keeps (at least, when `capped`). */
  matched: number;
  capped: boolean;
  total: number;
}

export interface InstallationOption {
  id: string;
  label: string;
  view: InstallationView;
}

/** A page of installations, and how long typing rests before its search goes to the server. */
const PICKER_PAGE_SIZE = 50;
const PICKER_DEBOUNCE_MS = 250;

function installationOption(i: InstallationView): InstallationOption {
  return { id: i.id, label: `${i.name} (${i.team.id})${i.state === "needs_reinstall" ? " · needs reinstall" : ""}`, view: i };
}

/**
 * The installations a picker offers (the explorer's form, a collection's "Run against"): a page of them,
 * searched on the server as the person types (issue 43: one among 100,000), so any this person may use can
 * be found. Until they type, `pinned` (an installation's id, or "" for the first page) is asked for, so a
 * link or the form's choice shows wherever it is in the list.
 */
export function useInstallationSearch(pinned: string) {
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), PICKER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const typed = q !== "";
  const session = useSession({ q: typed ? q : pinned, limit: PICKER_PAGE_SIZE });
  const installations = useMemo(() => (session.data?.installations ?? []).map(installationOption), [session.data]);
  const picker: InstallationPicker = {
    text,
    setText,
    matched: session.data?.page.matched ?? 0,
    capped: session.data?.page.capped.includes("all") ?? false,
    total: session.data?.page.total ?? 0,
  };
  return { session, typed, installations, picker };
}
