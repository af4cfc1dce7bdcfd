import { ConfigError, getConfig } from "@/lib/config";
import { getEmbeddedEmulator } from "@/lib/embedded-emulator";
import { getEventSink } from "@/lib/events/sink";
import { recordPeerAddresses } from "@/lib/http/client-address";
import { countRefusals } from "@/lib/ops/refusal-metrics";
import { guardRequests } from "@/lib/ops/request-guard";
import { installGracefulShutdown } from "@/lib/ops/shutdown";
import { startRefresher } from "@/lib/installations/rotation/refresher";
import { sendAlertToWebhook } from "@/lib/webhooks/alert";

// Every request passes the Node server's own guard before Next.js sees it (lib/ops/request-guard.ts): too many
// cookies answer 431, and a server listening wider than HOST says serves nothing (503, saying why).
guardRequests();
countRefusals();

// Every request's socket address, for the bounds per client (lib/http/client-address.ts): Next.js gives a
// route no socket, and keeps a client's own X-Forwarded-For.
recordPeerAddresses();

/**
 * A bad environment stops the process here, with the configuration's own message: Next.js would
 * otherwise keep serving and answer 500 to every request.
 */
try {
  getConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`\n${error.message}\n`);
  process.exit(1);
}

// With REDIS_URL, subscribe to the other instances' events from the start, so this instance's feed has
// them before its first /events viewer connects.
getEventSink();

// Where to open the console: its public origin, whose cookies and OAuth redirect it uses (not the address it
// listens on, which scripts/start.sh keeps Next.js from printing), and who else can reach it. "Listening on"
// is what HOST says; the server's real address is held against it at the first request (lib/ops/exposure.ts).
{
  const { appOrigin, host, exposed, auth } = getConfig();
  console.log(
    `[switchboard] Open ${appOrigin} (listening on ${host}: ${exposed ? "reachable from other machines; the emulator's admin surface needs EMULATOR_ADMIN_TOKEN" : "this machine only"}; ${
      auth.mode === "oidc" ? "people sign in with the platform" : "no sign-in: whoever opens it is the operator"
    })`,
  );
}

// The embedded emulator exists from the start (it is cheap: its workspace is made at first use), so the
// console's own calls to it are function calls from the first one (lib/emulator-admin/transport.ts).
if (getConfig().upstream.kind === "emulator") getEmbeddedEmulator();

// The refreshes a process that stopped mid-refresh left unsettled are replayed now, before anything uses a
// token (lib/installations/rotation/start-up-replay.ts): a call must not use an access token the platform already
// replaced while the pair that replaced it is still to be stored. instrumentation.ts awaits the first attempt
// before the first request; a store out of reach is no reason not to start: the replay is tried again in the
// background until it reaches the store (and each refresh replays its own token's under its lock meanwhile).
export { replayUnsettledRefreshes } from "@/lib/installations/rotation/start-up-replay";

// The background refresher (BACKGROUND_REFRESH, on by default): every rotating token refreshed before it
// expires, whether or not anyone has the console open. Its needs-reinstall alert goes out through lib/webhooks.
startRefresher({ sendAlert: sendAlertToWebhook });

// SIGTERM and SIGINT end the instance gracefully (lib/ops/shutdown.ts): readiness 503, no new connections,
// work in flight finished, event streams closed with a reconnect hint, within SHUTDOWN_TIMEOUT_S.
installGracefulShutdown();
