import type { AddressInfo } from "node:net";
import { isExposedHost } from "@/lib/config";

/**
 * The console decides how much to trust whoever reaches it (no sign-in by default, the emulator's admin surface
 * open without its token) from HOST, which npm start passes to `next start -H`. Nothing makes Next.js listen
 * there: `next start -p 3000` without -H listens on every interface while HOST says 127.0.0.1. So the address
 * the server actually listens on is read from the server itself at its first request (lib/ops/request-guard.ts;
 * instrumentation runs before Next.js hands the server anything) and held against the configuration.
 */

/** What the configuration says of where the console listens. */
export interface ConfiguredExposure {
  host: string;
  exposed: boolean;
}

/**
 * Why the server must not serve: it listens on an address other machines reach while the configuration says
 * this machine only. Undefined when they agree, or when it listens more narrowly than configured (a console
 * configured as exposed behind a proxy on this machine), which is safe.
 */
export function listeningExposure(address: AddressInfo | string | null, configured: ConfiguredExposure): string | undefined {
  // A Unix socket (a string) or a server not listening reaches no other machine.
  if (configured.exposed || address === null || typeof address === "string" || !isExposedHost(address.address)) return undefined;
  const where = address.address === "::" || address.address === "0.0.0.0" ? `every interface (${address.address})` : address.address;
  return (
    `The server listens on ${where}, port ${address.port}, which other machines can reach, but HOST is ${configured.host}, so the console ` +
    "believes it is this machine's alone (no sign-in, the emulator's admin surface open without its token): it serves nothing until it is restarted " +
    `with npm start (which passes HOST to next start -H) or next start -H ${configured.host}; to serve other machines, set HOST to the address to listen on ` +
    "(with AUTH_MODE, EMULATOR_ADMIN_TOKEN and APP_ORIGIN)."
  );
}
