import type { DeliverEvent } from "@/lib/emulator";

/**
 * An app's request URL as every app has one: it answers the platform's url_verification challenge by
 * echoing it (JSON, as the official frameworks do) and hands every other request to `onEvent`.
 */
export function answeringChallenges(onEvent: DeliverEvent, verifications: string[] = []): DeliverEvent {
  return async (url, init) => {
    const payload = JSON.parse(String(init.body)) as { type?: string; challenge?: string };
    if (payload.type !== "url_verification") return onEvent(url, init);
    verifications.push(url);
    return Response.json({ challenge: payload.challenge });
  };
}
