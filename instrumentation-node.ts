import { ConfigError, getConfig } from "@/lib/config";
import { getEventSink } from "@/lib/events/sink";

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
