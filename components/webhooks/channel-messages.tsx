"use client";

import { PlatformText } from "@/components/platform-text";
import { LocalTime } from "@/components/local-time";
import { useEmulatorChannel } from "@/lib/swr/use-webhooks";

/** A message ts ("1700000000.000100") is epoch seconds, then a sequence number. */
const sentAt = (ts: string) => Number(ts.split(".")[0]) * 1000;

/** "13 h 5 min": how far the platform's clock is ahead, to the minute. */
function aheadText(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return [hours > 0 ? `${hours} h` : "", minutes > 0 ? `${minutes} min` : ""].filter(Boolean).join(" ");
}

/**
 * The webhook's channel in the upstream emulator, embedded or standalone (in the workspace of the webhook's installation), so the
 * developer sees the message arrive. Its times are the platform's own (a message's ts), which the dashboard
 * can move ahead; the send history's are the console's clock, and each panel says which it shows.
 */
export function ChannelMessages({ channelId, teamId, channelName }: { channelId: string; teamId: string | null; channelName: string }) {
  const { data, error } = useEmulatorChannel(channelId, teamId);
  // The install reports the channel as "#general"; the emulator's state as "general".
  const name = (data?.channel.name ?? channelName).replace(/^#/, "");
  return (
    <section aria-labelledby="channel-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="flex items-center justify-between border-b border-slate-100 px-4 py-3">
        <h2 id="channel-heading" className="text-sm font-semibold">
          #<PlatformText>{name}</PlatformText> <span className="font-normal text-slate-500">in the emulator</span>
        </h2>
        <span className="flex items-center gap-1.5 text-[11px] text-slate-500">
          <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-emerald-500" />
          live
        </span>
      </header>
      {data && (
        <p className="border-b border-slate-100 px-4 py-1.5 text-[11px] text-slate-500" data-testid="channel-clock">
          {data.platformAheadS >= 60
            ? `Times by the platform's clock, ${aheadText(data.platformAheadS)} ahead of yours (moved on the Installations page): the send history's are yours.`
            : "Times by the platform's clock (the same as yours now)."}
        </p>
      )}
      {error ? (
        <p role="alert" className="px-4 py-4 text-sm text-rose-700">
          {error.message}
        </p>
      ) : !data ? (
        <p className="px-4 py-4 text-sm text-slate-500">Loading…</p>
      ) : data.messages.length === 0 ? (
        <p className="px-4 py-4 text-sm text-slate-500">
          No messages in #<PlatformText>{name}</PlatformText> yet. Send one.
        </p>
      ) : (
        <ol aria-label={`Messages in #${name}, newest first`} tabIndex={0} className="max-h-80 divide-y divide-slate-100 overflow-y-auto">
          {data.messages.map((message) => (
            <li key={message.ts} className="px-4 py-2.5">
              <div className="flex items-center gap-2 text-[11px] text-slate-500">
                <PlatformText className="font-semibold text-slate-700">{message.author}</PlatformText>
                <span className="rounded bg-slate-100 px-1 py-px text-slate-700">{message.via}</span>
                <LocalTime at={sentAt(message.ts)} date="auto" className="ml-auto tabular-nums" />
              </div>
              <p className="mt-0.5 whitespace-pre-wrap break-words text-sm text-slate-800">
                <PlatformText>{message.text}</PlatformText>
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
