"use client";

import type { ReceivedEvent } from "@/lib/events/feed";
import { LocalTime } from "@/components/local-time";
import { PlatformJson, PlatformText } from "@/components/platform-text";

/** The human part of an event, when it has one (a mention's text). */
function summary(event: ReceivedEvent): string | null {
  const payload = event.payload as { event?: { text?: unknown; channel?: unknown; user?: unknown }; challenge?: unknown };
  if (typeof payload.event?.text === "string") return payload.event.text;
  if (typeof payload.challenge === "string") return "Challenge answered: the platform can now send events to this URL.";
  return null;
}

/**
 * One received request. It names the app it was for (by name where the console knows it, else by id):
 * the emulator's two default apps send identical url_verification requests, told apart only by this.
 */
export function EventCard({ event, appName }: { event: ReceivedEvent; appName?: string }) {
  const title = event.eventType ?? event.envelopeType;
  const text = summary(event);
  const inner = (event.payload as { event?: { channel?: unknown; user?: unknown } }).event;
  const appId = event.appId ?? null;
  const app = appName ?? appId;
  return (
    <article
      aria-label={`${title} event${event.eventId ? ` ${event.eventId}` : ""}${app ? ` for ${app}` : ""}`}
      className="rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <header className="flex flex-wrap items-center gap-2 px-4 pt-3 text-xs">
        <span className="rounded bg-violet-100 px-1.5 py-0.5 font-mono font-semibold text-violet-800">
          <PlatformText>{title}</PlatformText>
        </span>
        {event.eventType && (
          <span className="text-slate-500">
            <PlatformText>{event.envelopeType}</PlatformText>
          </span>
        )}
        {event.retryNum !== null && (
          <span className="rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-800" title="X-Slack-Retry-Num / X-Slack-Retry-Reason">
            Retry #{event.retryNum}
            {event.retryReason && (
              <>
                {" · "}
                <PlatformText>{event.retryReason}</PlatformText>
              </>
            )}
          </span>
        )}
        <LocalTime at={event.receivedAt} className="ml-auto tabular-nums text-slate-500" />
      </header>
      <div className="px-4 pb-3 pt-1.5">
        {text && (
          <p className="whitespace-pre-wrap break-words text-sm text-slate-800">
            <PlatformText>{text}</PlatformText>
          </p>
        )}
        <dl className="mt-1.5 flex flex-wrap gap-x-4 gap-y-1 text-[11px] text-slate-500">
          {appId && (
            <div>
              <dt className="inline">app </dt>
              <dd className="inline text-slate-700">
                {appName && (
                  <>
                    <span className="font-medium">
                      <PlatformText>{appName}</PlatformText>
                    </span>{" "}
                  </>
                )}
                <span className="font-mono">
                  <PlatformText>{appId}</PlatformText>
                </span>
              </dd>
            </div>
          )}
          {event.eventId && (
            <div>
              <dt className="inline">event </dt>
              <dd className="inline font-mono text-slate-700">
                <PlatformText>{event.eventId}</PlatformText>
              </dd>
            </div>
          )}
          {event.teamId && (
            <div>
              <dt className="inline">team </dt>
              <dd className="inline font-mono text-slate-700">
                <PlatformText>{event.teamId}</PlatformText>
              </dd>
            </div>
          )}
          {typeof inner?.channel === "string" && (
            <div>
              <dt className="inline">channel </dt>
              <dd className="inline font-mono text-slate-700">
                <PlatformText>{inner.channel}</PlatformText>
              </dd>
            </div>
          )}
          {typeof inner?.user === "string" && (
            <div>
              <dt className="inline">user </dt>
              <dd className="inline font-mono text-slate-700">
                <PlatformText>{inner.user}</PlatformText>
              </dd>
            </div>
          )}
        </dl>
        <details className="group mt-2">
          <summary className="cursor-pointer select-none text-xs font-medium text-slate-600 hover:text-slate-900">Payload</summary>
          <pre
            aria-label="Event payload"
            className="mt-2 max-h-96 overflow-auto rounded-md bg-[#0f172a] px-3 py-2 font-mono text-[11px] leading-5 text-[#f1f5f9]"
          >
            <PlatformJson value={event.payload} />
          </pre>
        </details>
      </div>
    </article>
  );
}
