import "server-only";
import { getConfig } from "@/lib/config";
import { logger } from "@/lib/log";
import { findProcessSingleton, processSingleton } from "@/lib/process-singleton";
import { createEmulator, EMULATOR_MOUNT_PATH, type Emulator } from "@/lib/emulator";
import { embeddedSocketServer, type EmbeddedSocketServer } from "@/lib/embedded-emulator-sockets";

/*
 * The console's embedded emulator, mounted at /emulator (app/emulator/[[...path]]/route.ts). The emulator is
 * framework-free and reads nothing of the console: the console configures it here, from its own
 * configuration, as hono's adapters are configured by their caller. Apart from lib/emulator's index because
 * it is server-only and reads the console's configuration, which scripts must not load.
 */

/** The embedded emulator's Socket Mode server, once made (closed with it). */
let socketServer: EmbeddedSocketServer | undefined;

/** Under this name the process keeps its embedded emulator (lib/process-singleton.ts). */
export const EMBEDDED_EMULATOR_SINGLETON = "embeddedEmulator";

/** The embedded emulator, if this process has made it (the /emulator route makes it at its first request). */
export function findEmbeddedEmulator(): Emulator | undefined {
  return findProcessSingleton<Emulator>(EMBEDDED_EMULATOR_SINGLETON);
}

/**
 * The emulator the console mounts at /emulator. One per server process, so that every route bundle (and
 * dev-mode reloads) shares the same state.
 */
export function getEmbeddedEmulator(): Emulator {
  return processSingleton(EMBEDDED_EMULATOR_SINGLETON, () => {
    const config = getConfig();
    const { dataDir } = config.emulator;
    // Socket Mode's connections come to a loopback server of its own (lib/embedded-emulator-sockets.ts).
    const sockets: EmbeddedSocketServer = embeddedSocketServer(() => emulator, EMULATOR_MOUNT_PATH);
    socketServer = sockets;
    const emulator: Emulator = createEmulator({
      socketModeUrl: () => sockets.url(),
      // Its state lasts across restarts in DATA_DIR, beside the store's (lib/emulator/persist): the installations the store keeps stay alive upstream.
      dataDir,
      warn: (message) => logger.warn(message),
      basePath: EMULATOR_MOUNT_PATH,
      // The URLs it hands out (webhooks above all, which the console's own guard matches against
      // APP_ORIGIN) name the console's public origin, whatever Host the request came with.
      publicBaseUrl: `${config.appOrigin}${EMULATOR_MOUNT_PATH}`,
      users: config.emulator.users,
      workspaces: config.emulator.workspaces,
      seed: config.emulator.seed,
      // Something to explore from the first call: channels with history, threads, reactions and files.
      seedContent: true,
      refreshGraceSeconds: config.emulator.refreshGraceS,
      cursorTtlSeconds: config.emulator.cursorTtlS,
      rateLimits: config.emulator.rateLimits,
      // The default apps accept the console's own callbacks (install and sign-in) and deliver events to its request URL.
      redirectUrls: [config.redirectUri, config.auth.redirectUri],
      eventsRequestUrl: `${config.appOrigin}/api/events`,
      // Its admin surface answers anyone who reaches the console: events go to the console, nowhere else.
      eventRequestUrls: [`${config.appOrigin}/api/events`],
      // The console's one exposure rule (lib/config.ts): the names it is reached at, and the token whenever
      // HOST reaches beyond this machine. The console's own calls carry the token (lib/emulator-admin/transport.ts).
      // With sign-in on, the console lets only a signed-in admin through without the token (lib/access/emulator-admin-gate.ts).
      admin: {
        token: config.emulator.adminToken,
        requireToken: config.exposed,
        scriptsNeedToken: config.auth.mode === "oidc",
        allowedHosts: config.allowedHosts,
      },
    });
    logger.info(
      dataDir
        ? `the embedded emulator keeps its state in ${dataDir}${config.store.kind === "postgres" ? " (DATA_DIR's folder: the store is PostgreSQL, the emulator is this process's own)" : ""}`
        : "the embedded emulator keeps its state in memory (DATA_DIR=memory://): a restart starts it afresh",
    );
    return emulator;
  });
}

/** Writes what the embedded emulator has not yet written to its data directory (graceful shutdown). */
export async function closeEmbeddedEmulator(): Promise<void> {
  await socketServer?.close();
  await findEmbeddedEmulator()?.close();
}

/**
 * Serves a request under /emulator. The emulator, admin surface included, exists only while it is the
 * console's upstream: once PLATFORM_BASE_URL points at the real platform, /emulator answers 404.
 */
export async function handleEmbeddedEmulatorRequest(request: Request): Promise<Response> {
  const { upstream } = getConfig();
  if (upstream.kind !== "emulator") {
    return new Response(`The embedded emulator is off: the console's upstream is ${upstream.baseUrl} (PLATFORM_BASE_URL).\n`, {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  // The emulator reads the body itself, in full and bounded, before it acts (core/request-body.ts): a
  // caller that goes away after sending it cannot take back what the platform would have done.
  return getEmbeddedEmulator().fetch(request);
}
