/** Time left until `at` (epoch ms), as the settings page shows it: "11h 58m", "4m 10s", "expired". */
export function formatRemaining(at: number, now: number): string {
  const s = Math.floor((at - now) / 1000);
  if (s <= 0) return "expired";
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h ${String(m).padStart(2, "0")}m` : `${m}m ${String(s % 60).padStart(2, "0")}s`;
}

/** A file name for an app's manifest download: the app's name in lowercase letters, digits and dashes. */
export function manifestFileName(name: string, extension: "json" | "yaml"): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "app";
  return `${slug}-manifest.${extension}`;
}
