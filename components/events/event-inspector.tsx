"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import { PlatformText } from "@/components/platform-text";
import { useEventFeed, useMentionApp } from "@/lib/swr/use-events";
import { EventCard } from "./event-card";
import { useSelectOnFocus } from "@/components/use-select-on-focus";

export interface MentionTarget {
  installationId: string;
  label: string;
  /** The installation granted app_mentions:read: without it the emulator sends nothing. */
  canReceive: boolean;
}

/** /events: the request URL, "mention the app" (with the emulator), and the live feed, newest first. */
export function EventInspector({
  requestUrl,
  emulator,
  targets,
  appNames,
}: {
  requestUrl: string;
  emulator: boolean;
  targets: MentionTarget[];
  /** App names by app id, where the console knows them (lib/events/app-names.ts). */
  appNames: Record<string, string>;
}) {
  const { data, error } = useEventFeed();
  const events = data?.events ?? [];
  const connected = data?.connected ?? false;

  return (
    <div className="grid gap-6 lg:grid-cols-[22rem_minmax(0,1fr)]">
      <div className="space-y-6">
        <section aria-labelledby="request-url-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 id="request-url-heading" className="text-sm font-semibold">
            Request URL
          </h2>
          <p className="mt-1 text-xs text-slate-500">Set this as your app&apos;s Event Subscriptions request URL.</p>
          <code className="mt-2 block break-all rounded-md bg-slate-100 px-2.5 py-2 font-mono text-xs text-slate-800">{requestUrl}</code>
          <ul className="mt-3 space-y-1 text-xs text-slate-600">
            <li>Answers url_verification challenges.</li>
            <li>Verifies X-Slack-Signature (v0, 5-minute window); anything else gets 401.</li>
            <li>Acknowledges at once, well within the platform&apos;s 3 seconds.</li>
          </ul>
        </section>
        {emulator && <MentionForm targets={targets} />}
      </div>

      <section aria-labelledby="feed-heading" className="space-y-3">
        <header className="flex items-center justify-between">
          <h2 id="feed-heading" className="text-sm font-semibold">
            Received events <span className="font-normal text-slate-500">({events.length}, newest first)</span>
          </h2>
          <span className="flex items-center gap-1.5 text-xs text-slate-600" role="status" aria-label="Feed connection">
            <span aria-hidden className={`h-2 w-2 rounded-full ${connected ? "animate-pulse bg-emerald-500" : "bg-slate-300"}`} />
            {connected ? "Listening" : error ? "Disconnected" : "Connecting…"}
          </span>
        </header>
        {events.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-8 text-center text-sm text-slate-500">
            No events yet.{emulator ? " Mention the app to send one." : " They appear here as the platform delivers them."}
          </p>
        ) : (
          <ol aria-label="Received events" className="space-y-3">
            {events.map((event) => (
              <li key={event.id}>
                <EventCard event={event} appName={event.appId ? appNames[event.appId] : undefined} />
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function MentionForm({ targets }: { targets: MentionTarget[] }) {
  const mention = useMentionApp();
  const [installationId, setInstallationId] = useState(targets[0]?.installationId ?? "");
  const [text, setText] = useState("can you help?");
  // The suggested text is selected on focus, so typing replaces it; once edited, the field is the person's.
  const [edited, setEdited] = useState(false);
  const selectOnFocus = useSelectOnFocus(!edited);
  const [notice, setNotice] = useState<{ ok: boolean; message: ReactNode } | null>(null);
  const target = targets.find((t) => t.installationId === installationId);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    try {
      const result = await mention.trigger({ installationId, text });
      setNotice(
        result.event_ids.length > 0
          ? {
              ok: true,
              message: (
                <>
                  Posted “<PlatformText>{result.text}</PlatformText>”: app_mention {result.event_ids.join(", ")} is on its way.
                </>
              ),
            }
          : { ok: false, message: "The message was posted, but no event was sent: the installation needs app_mentions:read (reinstall)." },
      );
    } catch (e) {
      setNotice({ ok: false, message: e instanceof Error ? e.message : String(e) });
    }
  }

  return (
    <section aria-labelledby="mention-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="mention-heading" className="text-sm font-semibold">
        Mention the app
      </h2>
      <p className="mt-1 text-xs text-slate-500">
        A member of the emulated workspace mentions your bot in #general; the emulator delivers a signed app_mention here.
      </p>
      {targets.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">
          <a href="/oauth/install" className="font-medium text-emerald-700 underline">
            Install the app
          </a>{" "}
          first.
        </p>
      ) : (
        <form onSubmit={submit} aria-labelledby="mention-heading" className="mt-3 space-y-2">
          {targets.length > 1 && (
            <label className="block text-xs font-medium text-slate-700">
              Installation
              <select
                value={installationId}
                onChange={(e) => setInstallationId(e.target.value)}
                className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
              >
                {targets.map((t) => (
                  <option key={t.installationId} value={t.installationId}>
                    {t.label}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="block text-xs font-medium text-slate-700">
            Message after the mention
            <input
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setEdited(true);
              }}
              {...selectOnFocus}
              maxLength={500}
              className="mt-1 block w-full rounded-md border border-slate-300 px-2.5 py-1.5 text-sm focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
            />
          </label>
          {target && !target.canReceive && (
            <p className="text-xs text-amber-700">This installation was not granted app_mentions:read: no event will be sent until you reinstall.</p>
          )}
          <button
            type="submit"
            disabled={mention.isMutating || !installationId}
            className="w-full rounded-md bg-violet-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-violet-700 disabled:opacity-50"
          >
            {mention.isMutating ? "Mentioning…" : "Mention the app"}
          </button>
          {notice && (
            <p role="status" className={`rounded-md px-2.5 py-2 text-xs ${notice.ok ? "bg-emerald-50 text-emerald-800" : "bg-amber-50 text-amber-900"}`}>
              {notice.message}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
