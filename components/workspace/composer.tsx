"use client";

import { useId, useState, type KeyboardEvent } from "react";
import type { WorkspaceAppWire } from "@/lib/emulator-admin/universal/schemas";
import { BUTTON, INPUT } from "@/components/ui/primitives";

export interface SlashCommandChoice {
  command: string;
  description: string;
  usage_hint: string;
  app_id: string;
  app: string;
}

/** Every installed app's slash commands, as the composer offers them. */
export function commandsOf(apps: WorkspaceAppWire[]): SlashCommandChoice[] {
  return apps.flatMap((app) => app.commands.map((c) => ({ ...c, app_id: app.app_id, app: app.name })));
}

/**
 * The message box: a post (a thread reply when `threadTs`), a mention of an app (`<@bot user>`, as a client
 * writes it), or a slash command: typing `/` offers the installed apps' commands, with their usage hints, as
 * the person types; Enter runs the command instead of posting it.
 */
export function Composer({
  label,
  apps,
  busy,
  onPost,
  onCommand,
}: {
  label: string;
  apps: WorkspaceAppWire[];
  busy: boolean;
  onPost: (text: string) => Promise<boolean>;
  onCommand?: (choice: SlashCommandChoice, text: string) => Promise<boolean>;
}) {
  const id = useId();
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  /** Escape closed the command menu: it stays closed, the text kept, until the person types again. */
  const [dismissed, setDismissed] = useState(false);
  const commands = onCommand ? commandsOf(apps) : [];
  const typed = /^\/[\w-]*$/.test(text) ? text : null;
  const matches = typed === null ? [] : commands.filter((c) => c.command.startsWith(typed));
  const open = matches.length > 0 && !dismissed;
  const named = /^(\/[\w-]+)(?:\s|$)/.exec(text)?.[1];
  const chosen = named ? commands.find((c) => c.command === named) : undefined;

  const pick = (choice: SlashCommandChoice) => {
    setText(`${choice.command} `);
    setActive(0);
  };

  const send = async () => {
    const trimmed = text.trim();
    if (trimmed === "" || busy) return;
    setProblem(null);
    if (onCommand && trimmed.startsWith("/")) {
      const command = /^\/[\w-]+/.exec(trimmed)?.[0] ?? trimmed;
      const choice = commands.find((c) => c.command === command);
      if (!choice) {
        // As a client says it: nothing is sent.
        setProblem(
          `${command} is not a valid command. In this workspace, the installed apps' commands are: ${commands.map((c) => c.command).join(", ") || "none"}.`,
        );
        return;
      }
      if (await onCommand(choice, trimmed.slice(command.length).trim())) setText("");
      return;
    }
    if (await onPost(trimmed)) setText("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (open && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      setActive((a) => (a + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
    } else if (open && (e.key === "Tab" || (e.key === "Enter" && matches[active] && matches[active].command !== typed))) {
      e.preventDefault();
      pick(matches[Math.min(active, matches.length - 1)]!);
    } else if (e.key === "Escape" && open) {
      // As a menu does: Escape closes it and nothing else (not the text typed, not a dialog around it).
      e.preventDefault();
      e.stopPropagation();
      setDismissed(true);
    } else if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  };

  const mentionable = apps.filter((a) => a.bot_user_id);
  return (
    <div className="relative space-y-1">
      {open && (
        <ul
          id={`${id}-commands`}
          role="listbox"
          aria-label="Slash commands"
          className="absolute bottom-full mb-1 w-full overflow-hidden rounded-md border border-slate-200 bg-white shadow-lg"
        >
          {matches.map((c, i) => (
            <li
              key={`${c.app_id}${c.command}`}
              id={`${id}-command-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(c);
              }}
              className={`cursor-pointer px-3 py-1.5 text-sm ${i === active ? "bg-emerald-50" : ""}`}
            >
              <span className="font-mono font-medium text-slate-900">{c.command}</span>
              {c.usage_hint && <span className="ml-2 font-mono text-slate-600">{c.usage_hint}</span>}
              <span className="ml-2 text-slate-600">
                {c.description} · {c.app}
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <input
          aria-label={label}
          role={onCommand ? "combobox" : undefined}
          aria-expanded={onCommand ? open : undefined}
          aria-controls={open ? `${id}-commands` : undefined}
          aria-activedescendant={open ? `${id}-command-${active}` : undefined}
          aria-autocomplete={onCommand ? "list" : undefined}
          aria-describedby={chosen?.usage_hint ? `${id}-hint` : undefined}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
            setDismissed(false);
            setProblem(null);
          }}
          onKeyDown={onKeyDown}
          placeholder={onCommand ? `${label} (type / for commands)` : label}
          className={`${INPUT} min-w-48 flex-1 basis-64`}
        />
        {mentionable.length > 0 && (
          <select
            aria-label="Mention an app"
            value=""
            onChange={(e) => setText((t) => `${t}${t && !t.endsWith(" ") ? " " : ""}<@${e.target.value}> `)}
            className="max-w-32 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-700"
          >
            <option value="">@ Mention</option>
            {mentionable.map((a) => (
              <option key={a.app_id} value={a.bot_user_id}>
                {a.name}
              </option>
            ))}
          </select>
        )}
        <button type="button" className={BUTTON.primary} disabled={busy || text.trim() === ""} onClick={() => void send()}>
          Send
        </button>
      </div>
      {chosen?.usage_hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          <span className="font-mono">
            {chosen.command} {chosen.usage_hint}
          </span>{" "}
          — {chosen.description}
        </p>
      )}
      {problem && (
        <p role="alert" className="text-sm text-rose-700">
          {problem}
        </p>
      )}
    </div>
  );
}
