"use client";

import { useState } from "react";
import type { CompareSide } from "@/lib/explorer/compare";
import { BUTTON, Panel } from "@/components/ui/primitives";

/** Two answers saved as files, compared by the history page's compare (on this machine only). */
export function CompareFilesPanel({ compare }: { compare(left: CompareSide, right: CompareSide): void }) {
  const [files, setFiles] = useState<{ left?: File; right?: File }>({});
  const compareFiles = () => {
    if (files.left && files.right) compare({ file: files.left }, { file: files.right });
  };
  return (
    <Panel title="Compare two JSON files">
      <p className="mb-2 text-sm text-slate-600">
        Two answers saved as files (a Fetch all&apos;s JSON download, for one), compared the same way, on this machine only.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm text-slate-700">
          Before
          <input
            type="file"
            accept="application/json,.json"
            className="block text-sm"
            onChange={(e) => setFiles((f) => ({ ...f, left: e.target.files?.[0] }))}
          />
        </label>
        <label className="text-sm text-slate-700">
          After
          <input
            type="file"
            accept="application/json,.json"
            className="block text-sm"
            onChange={(e) => setFiles((f) => ({ ...f, right: e.target.files?.[0] }))}
          />
        </label>
        <button type="button" className={BUTTON.secondary} disabled={!files.left || !files.right} onClick={compareFiles}>
          Compare files
        </button>
      </div>
    </Panel>
  );
}
