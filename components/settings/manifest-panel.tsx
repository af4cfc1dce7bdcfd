"use client";

import { useMemo, useState } from "react";
import { BUTTON, Panel } from "@/components/ui/primitives";
import { PlatformJson } from "@/components/platform-text";
import { SegmentedControl } from "@/components/segmented-control";
import type { AppSettingsView } from "@/lib/app-config/universal/types";
import { toYaml } from "@/lib/app-config/universal/yaml";
import { manifestFileName } from "./format";
import { downloadFile } from "@/components/download-file";

type Format = "json" | "yaml";

/** The app's manifest as JSON or YAML, to read and to download. */
export function ManifestPanel({ settings }: { settings: AppSettingsView }) {
  const [format, setFormat] = useState<Format>("json");
  const json = useMemo(() => `${JSON.stringify(settings.manifest, null, 2)}\n`, [settings.manifest]);
  const yaml = useMemo(() => toYaml(settings.manifest), [settings.manifest]);
  return (
    <Panel
      title="App manifest"
      actions={
        <>
          <button type="button" className={BUTTON.secondary} onClick={() => downloadFile(manifestFileName(settings.name, "json"), "application/json", json)}>
            Download JSON
          </button>
          <button type="button" className={BUTTON.secondary} onClick={() => downloadFile(manifestFileName(settings.name, "yaml"), "application/yaml", yaml)}>
            Download YAML
          </button>
        </>
      }
    >
      <div className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <SegmentedControl
            label="Manifest format"
            options={[
              { value: "json", label: "JSON" },
              { value: "yaml", label: "YAML" },
            ]}
            value={format}
            onChange={setFormat}
            className="bg-slate-100 text-sm"
          />
          <p className="text-xs text-slate-500">
            {settings.backend === "manifest-api" ? "As apps.manifest.export answered." : "As the emulator keeps it."} It holds no secret.
          </p>
        </div>
        <pre
          aria-label={`Manifest as ${format.toUpperCase()}`}
          className="max-h-[28rem] overflow-auto rounded-md bg-[#0f172a] p-3 font-mono text-xs leading-relaxed text-[#f1f5f9]"
          tabIndex={0}
        >
          {format === "json" ? <PlatformJson value={settings.manifest} /> : yaml}
        </pre>
      </div>
    </Panel>
  );
}
