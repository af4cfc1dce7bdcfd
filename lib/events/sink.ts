import "server-only";
import { getConfig } from "@/lib/config";
import { processSingleton } from "@/lib/process-singleton";
import { getEventFeed, type EventSink } from "./feed";
import { RedisEventRelay } from "./redis-relay";

/**
 * Where this instance puts the events it receives, shared by every route bundle like the feed: with
 * REDIS_URL set, a relay that feeds every instance behind the load balancer; otherwise the feed itself.
 * Called when the server starts (instrumentation), so an instance collects the others' events from then on.
 */
export function getEventSink(): EventSink {
  return processSingleton("eventSink", createEventSink);
}

function createEventSink(): EventSink {
  const config = getConfig();
  const feed = getEventFeed();
  if (!config.redisUrl) return feed;
  return new RedisEventRelay({ url: config.redisUrl, feed, passwords: config.sessionPasswords });
}
