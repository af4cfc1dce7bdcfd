"use client";

import { useState } from "react";
import { useInstallationSearch, type InstallationOption } from "@/components/installations/use-installation-search";

/**
 * The installation a collection runs against ("Run against"): any this person may use, found by the
 * explorer's own search (useInstallationSearch). Until they type, it offers the first page with the form's
 * installation and the one last chosen, the form's until another is chosen; while a search shows others,
 * the first found is the target, as in the explorer's form.
 */
export function useRunTarget(formInstallation: InstallationOption | undefined) {
  const search = useInstallationSearch("");
  const [chosen, setChosen] = useState<InstallationOption | null>(null);
  const found = search.installations;
  const kept = search.typed ? [] : [chosen, formInstallation].filter((i): i is InstallationOption => !!i && !found.some((f) => f.id === i.id));
  const installations = [...new Map([...kept, ...found].map((i) => [i.id, i])).values()];
  const wanted = chosen?.id ?? formInstallation?.id;
  const target = installations.some((i) => i.id === wanted) ? wanted! : (installations[0]?.id ?? "");
  const labelOf = (id: string) => installations.find((i) => i.id === id)?.label ?? id;
  return {
    installations,
    picker: search.picker,
    target,
    labelOf,
    choose: (id: string) => setChosen(installations.find((i) => i.id === id) ?? null),
  };
}
