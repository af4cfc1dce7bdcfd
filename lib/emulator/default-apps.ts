import { createHash } from "node:crypto";

/** Where the console mounts the embedded emulator: {origin}/emulator is a base_url in the spec's sense. */
export const EMULATOR_MOUNT_PATH = "/emulator";

export type DefaultAppKey = "rotation" | "legacy";

export interface AppCredentials {
  appId: string;
  clientId: string;
  clientSecret: string;
  signingSecret: string;
}

function digest(seed: string, label: string): string {
  return createHash("sha256").update(`${seed}\0${label}`).digest("hex");
}

function digits(hex: string, count: number): string {
  let out = "";
  for (let i = 0; out.length < count; i += 2) out += String(parseInt(hex.slice(i, i + 2), 16) % 10);
  return out.replace(/^0/, "1");
}

/**
 * The credentials of the emulator's two default apps, derived from the seed so that the console (which
 * defaults to the embedded emulator) and a standalone emulator started with the same seed agree on them
 * without either reading the other's state. They are emulator-only values, never the platform's.
 */
export function defaultAppCredentials(seed: string, key: DefaultAppKey): AppCredentials {
  const h = digest(seed, `app:${key}`);
  return {
    appId: `A0${h.slice(0, 9).toUpperCase().replace(/[^0-9A-Z]/g, "X")}`,
    clientId: `${digits(h, 13)}.${digits(h.slice(26), 13)}`,
    clientSecret: digest(seed, `client_secret:${key}`).slice(0, 32),
    signingSecret: digest(seed, `signing_secret:${key}`).slice(0, 32),
  };
}
