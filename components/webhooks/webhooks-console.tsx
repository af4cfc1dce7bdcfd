"use client";

import { useState } from "react";
import { useSWRConfig } from "swr";
import { emulatorChannelKey, useWebhooks } from "@/lib/swr/use-webhooks";
import { ChannelMessages } from "./channel-messages";
import { SendHistory } from "./send-history";
import { WebhookComposer } from "./webhook-composer";
import { WebhookList } from "./webhook-list";

/** /webhooks: pick a webhook, compose, send through the proxy, and (with the emulator) watch it arrive. */
export function WebhooksConsole({ emulator }: { emulator: boolean }) {
  const { data, error, isLoading } = useWebhooks();
  const { mutate } = useSWRConfig();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const webhooks = data?.webhooks ?? [];
  const selected = webhooks.find((w) => w.id === chosenId) ?? webhooks[0] ?? null;

  if (error) {
    return (
      <p role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-800">
        {error.message}
      </p>
    );
  }
  if (isLoading || !data) return <p className="text-sm text-slate-500">Loading webhooks…</p>;

  const refreshChannel = () => {
    if (selected?.channelId) void mutate(emulatorChannelKey(selected.channelId, selected.teamId));
  };

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[22rem_minmax(0,1fr)]">
      <div className="space-y-6">
        <WebhookList webhooks={webhooks} selectedId={selected?.id ?? null} onSelect={setChosenId} />
      </div>
      <div className="space-y-6">
        <WebhookComposer webhook={selected} onSent={refreshChannel} />
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
          {emulator && selected?.channelId ? (
            <ChannelMessages
              key={`${selected.teamId}:${selected.channelId}`}
              channelId={selected.channelId}
              teamId={selected.teamId}
              channelName={selected.channel ?? selected.channelId}
            />
          ) : (
            <section className="rounded-lg border border-dashed border-slate-300 px-4 py-4 text-sm text-slate-500">
              {emulator
                ? "Messages sent through a webhook from an install appear here, as the emulator's channel shows them."
                : "Connected to the real platform: open the channel in the platform's client to see your message."}
            </section>
          )}
          <SendHistory history={data.history} />
        </div>
      </div>
    </div>
  );
}
