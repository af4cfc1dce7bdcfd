import { createHash } from "node:crypto";

/**
 * What the console's configuration knows of the embedded emulator without importing it (lib/config.ts must
 * not: the emulator is the console's upstream, not its settings): where the console mounts it, its seed when
 * none is set, and the credentials of its two default apps, which the emulator derives from that seed
 * (lib/emulator/apps/default-apps.ts). Written twice on purpose, each side its own;
 * tests/unit/config/emulator-defaults.test.ts holds the console's equal to the emulator's.
 */

/** app/emulator/[[...path]]: {APP_ORIGIN}/emulator is a base URL in the spec's sense (docs/spec/web-api.md, section 4). */
export const EMULATOR_PATH = "/emulator";

/** EMULATOR_SEED's default: public, so anyone can sign events for an exposed console that keeps it. */
export const DEFAULT_EMULATOR_SEED = "switchboard";

type DefaultApp = "rotation" | "legacy";

const APP_NAMES: Record<DefaultApp, string> = { rotation: "Switchboard Rotation", legacy: "Switchboard Legacy" };

const sha256 = (seed: string, label: string) => createHash("sha256").update(`${seed}\0${label}`).digest("hex");

/** `count` decimal digits read off a hex digest, the first never 0. */
function decimalDigits(hex: string, count: number): string {
  let digits = "";
  for (let i = 0; digits.length < count; i += 2) digits += String(parseInt(hex.slice(i, i + 2), 16) % 10);
  return digits.replace(/^0/, "1");
}

/** One of the embedded emulator's default apps: its id, name and credentials under `seed`. */
export function emulatorDefaultApp(seed: string, key: DefaultApp) {
  const h = sha256(seed, `app:${key}`);
  return {
    appId: `A0${h.slice(0, 9).toUpperCase()}`,
    appName: APP_NAMES[key],
    clientId: `${decimalDigits(h, 13)}.${decimalDigits(h.slice(26), 13)}`,
    clientSecret: sha256(seed, `client_secret:${key}`).slice(0, 32),
    signingSecret: sha256(seed, `signing_secret:${key}`).slice(0, 32),
  };
}
