import "server-only";
import { getConfig } from "@/lib/config";
import { getEventFeed, type EventSink } from "./feed";
import { RedisEventRelay } from "./redis-relay";

const KEY = Symbol.for("switchboard.eventSink");
type GlobalWithSink = typeof globalThis & { [KEY]?: EventSink };

/**
 * Where this instance puts the events it receives, shared by every route bundle like the feed: with
 * REDIS_URL set, a relay that feeds every instance behind the load balancer; otherwise the feed itself.
 * Called when the server starts (instrumentation), so an instance collects the others' events from then on.
 */
export function getEventSink(): EventSink {
  const g = globalThis as GlobalWithSink;
  g[KEY] ??= createEventSink();
  return g[KEY];
}

function createEventSink(): EventSink {
  const config = getConfig();
  const feed = getEventFeed();
  if (!config.redisUrl) return feed;
  return new RedisEventRelay({ url: config.redisUrl, feed, passwords: config.sessionPasswords });
}
