"use client";

import { useId, useState, type ReactNode } from "react";
import { PlatformText } from "@/components/platform-text";
import type { AppKey } from "@/lib/installations/universal/view";
import { useSessionAction } from "@/lib/swr/use-session";
import { ExchangeDialog } from "./exchange-dialog";

const LONG_LIVED = /^xox[bp]-[A-Za-z0-9-]{8,}$/;

/**
 * Exchange a long-lived token obtained elsewhere: after oauth.v2.exchange it becomes a tracked
 * installation of this session (or joins the one of the same app and team).
 */
export function PasteTokenPanel({ emulator }: { emulator: boolean }) {
  const { trigger, isMutating } = useSessionAction();
  const [token, setToken] = useState("");
  const [app, setApp] = useState<AppKey>("console");
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: ReactNode } | null>(null);
  const inputId = useId();
  const appId = useId();
  const valid = LONG_LIVED.test(token.trim());

  async function exchange() {
    setConfirming(false);
    setMessage(null);
    try {
      const result = await trigger({ kind: "exchange", arg: { pastedToken: token.trim(), app, confirm: true } });
      setToken("");
      setMessage({
        ok: true,
        text: (
          <>
            Exchanged: now tracked as {result.installation ? <PlatformText>{result.installation.name}</PlatformText> : "an installation"}, with a rotating{" "}
            {result.installation?.bot?.masked ?? result.installation?.user?.masked ?? "token"}. Its timeline has the exchange.
          </>
        ),
      });
    } catch (error) {
      setMessage({ ok: false, text: error instanceof Error ? error.message : "The exchange failed." });
    }
  }

  return (
    <section aria-labelledby={`${inputId}-title`} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={`${inputId}-title`} className="text-sm font-semibold text-slate-900">
        Exchange a long-lived token
      </h2>
      <p className="mt-1 text-xs text-slate-600">
        Paste a bot (<code className="font-mono">xoxb-</code>) or user (<code className="font-mono">xoxp-</code>) token of an app with token rotation turned on.
        It is sent once to the server, exchanged with <code className="font-mono">oauth.v2.exchange</code>, and only the new rotating pair is kept, sealed.
        {emulator && (
          <>
            {" "}
            With the emulator, “Install the legacy app” gives you one; turn rotation on for its app first, in{" "}
            <a href="/settings" className="font-medium text-emerald-800 underline underline-offset-2">
              App settings
            </a>
            .
          </>
        )}
      </p>
      <form
        className="mt-3 flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) setConfirming(true);
        }}
      >
        <div className="min-w-[16rem] flex-1">
          <label htmlFor={inputId} className="block text-xs font-medium text-slate-700">
            Long-lived token
          </label>
          <input
            id={inputId}
            type="password"
            // A token to exchange, not a password of this site: keep password managers from offering to save it.
            autoComplete="off"
            data-1p-ignore
            data-lpignore="true"
            data-bwignore
            data-form-type="other"
            spellCheck={false}
            value={token}
            onChange={(e) => setToken(e.target.value)}
            placeholder="xoxb-…"
            className="mt-1 w-full rounded-md border border-slate-300 px-2.5 py-1.5 font-mono text-sm shadow-sm focus:border-emerald-500 focus:outline-none focus:ring-1 focus:ring-emerald-500"
          />
        </div>
        {emulator && (
          <div>
            <label htmlFor={appId} className="block text-xs font-medium text-slate-700">
              Issued by
            </label>
            <select
              id={appId}
              value={app}
              onChange={(e) => setApp(e.target.value as AppKey)}
              className="mt-1 rounded-md border border-slate-300 px-2 py-1.5 text-sm shadow-sm focus:border-emerald-500 focus:outline-none"
            >
              <option value="console">the console&apos;s app</option>
              <option value="legacy">the emulator&apos;s legacy app</option>
            </select>
          </div>
        )}
        <button
          type="submit"
          disabled={!valid || isMutating}
          className="rounded-md bg-amber-800 px-3 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-amber-900 disabled:cursor-not-allowed disabled:opacity-50"
        >
          Exchange…
        </button>
      </form>
      {message && (
        <p role="status" className={`mt-3 rounded-md px-3 py-2 text-sm ${message.ok ? "bg-emerald-50 text-emerald-900" : "bg-rose-50 text-rose-900"}`}>
          {message.text}
        </p>
      )}
      <ExchangeDialog
        open={confirming}
        tokenLabel="the pasted token"
        busy={isMutating}
        onClose={() => setConfirming(false)}
        onConfirm={() => void exchange()}
      />
    </section>
  );
}
