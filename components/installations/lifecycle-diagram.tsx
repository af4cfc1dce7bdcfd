"use client";

import { useId } from "react";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import {
  LIFECYCLE_STATES,
  LIFECYCLE_TRANSITIONS,
  lifecycleState,
  type InstallationPhase,
  type LifecycleStateId,
  type LifecycleTransition,
  type TransitionId,
} from "@/lib/installations/universal/lifecycle";

/** One token of the installation, where the lifecycle model puts it now. */
export interface DiagramToken {
  kind: TokenKind;
  state: LifecycleStateId;
  /** Its refresh token can still be spent: the refresh token's box is current for it too. */
  holdsRefresh: boolean;
  /** What the console can do for it from here (lib/installations/universal/lifecycle.ts, consoleTransitionsFor). */
  transitions: LifecycleTransition[];
}

/*
 * The diagram is drawn once, in a portrait layout (two columns of states, 360 units wide) that stays legible
 * from a phone's 390 px up to the column it gets beside the tokens on a wide screen: it scales with its box
 * (width 100%, height from the viewBox), never wider than the page. Every state is a box; every arrow carries
 * the rows of the spec's table it stands for, which the text list under it spells out.
 */

type Box = { x: number; y: number };
const W = 143;
const H = 60;
const BOXES: Record<LifecycleStateId | "install", Box> = {
  install: { x: 14, y: 24 },
  long_lived: { x: 14, y: 128 },
  expiring: { x: 14, y: 232 },
  expired: { x: 14, y: 336 },
  needs_reinstall: { x: 201, y: 128 },
  refresh_token: { x: 201, y: 232 },
  revoked: { x: 201, y: 336 },
  uninstalled: { x: 201, y: 440 },
};

const SUBTITLES: Record<LifecycleStateId, string> = {
  long_lived: "never expires",
  expiring: "12 h, then expired",
  expired: "calls answer an error",
  needs_reinstall: "authorization revoked",
  refresh_token: "single use",
  revoked: "this token only",
  uninstalled: "all tokens revoked",
};

interface Arrow {
  /** Which transitions it draws: lit when the console can take one of them now. */
  transitions: TransitionId[];
  path: string;
  /** Rows of the spec's table, on a pill on the arrow. */
  badge?: { text: string; x: number; y: number };
  labels: { text: string; x: number; y: number; anchor?: "start" | "middle" | "end"; small?: boolean }[];
  /** Branches that join it without an arrowhead of their own. */
  joins?: string[];
}

const ARROWS: Arrow[] = [
  { transitions: ["reinstall"], path: "M85.5 84 V126", labels: [{ text: "install", x: 93, y: 110 }] },
  { transitions: ["reinstall"], path: "M14 54 H6 V262 H12", labels: [] },
  {
    transitions: ["exchange", "turn_on_rotation"],
    path: "M60 188 V230",
    badge: { text: "1", x: 60, y: 209 },
    labels: [
      { text: "exchange", x: 72, y: 207 },
      { text: "rotation on first (9)", x: 72, y: 221, small: true },
    ],
  },
  { transitions: ["expire"], path: "M60 292 V334", badge: { text: "3", x: 60, y: 313 }, labels: [{ text: "12 h pass", x: 72, y: 317 }] },
  {
    transitions: ["revoke_without_rotation", "revoke_original"],
    path: "M157 158 H199",
    badge: { text: "2·7", x: 179, y: 158 },
    labels: [{ text: "revoke", x: 179, y: 144, anchor: "middle", small: true }],
  },
  {
    transitions: ["refresh"],
    path: "M201 262 H159",
    badge: { text: "4", x: 179, y: 262 },
    labels: [{ text: "refresh", x: 179, y: 248, anchor: "middle", small: true }],
  },
  {
    transitions: ["revoke_with_rotation", "prune_oldest"],
    path: "M140 292 L213 334",
    badge: { text: "5·6", x: 176, y: 313 },
    labels: [{ text: "revoke", x: 150, y: 331 }],
  },
  {
    transitions: ["uninstall"],
    path: "M112 470 H199",
    badge: { text: "8", x: 156, y: 470 },
    labels: [
      { text: "apps.uninstall", x: 14, y: 466 },
      { text: "from any state", x: 14, y: 480, small: true },
    ],
  },
  {
    transitions: ["reinstall"],
    path: "M344 470 H352 V54 H159",
    joins: ["M344 158 H352"],
    labels: [{ text: "reinstall", x: 255, y: 47, anchor: "middle" }],
  },
];

type Tone = "ok" | "warn" | "dead";
const TONE: Record<LifecycleStateId, Tone> = {
  long_lived: "ok",
  expiring: "ok",
  refresh_token: "ok",
  expired: "warn",
  revoked: "warn",
  needs_reinstall: "dead",
  uninstalled: "dead",
};
const CURRENT_BOX: Record<Tone, string> = {
  ok: "fill-emerald-50 stroke-emerald-700",
  warn: "fill-amber-50 stroke-amber-700",
  dead: "fill-rose-50 stroke-rose-700",
};
const CHIP: Record<Tone, string> = { ok: "fill-emerald-700", warn: "fill-amber-800", dead: "fill-rose-700" };

const KIND_LABEL: Record<TokenKind, string> = { bot: "bot token", user: "user token" };

/** Who is in each state now: "bot", "user", or the installation when it has no token left. */
function occupantsOf(tokens: DiagramToken[], phase: InstallationPhase): Map<LifecycleStateId, string[]> {
  const occupants = new Map<LifecycleStateId, string[]>();
  const add = (state: LifecycleStateId, who: string) => occupants.set(state, [...(occupants.get(state) ?? []), who]);
  for (const token of tokens) {
    add(token.state, token.kind);
    if (token.holdsRefresh) add("refresh_token", token.kind);
  }
  if (tokens.length === 0 && phase !== "active") add(phase, "installation");
  return occupants;
}

function transitionName(t: LifecycleTransition): string {
  return `${t.short}${t.specRow ? ` (${t.specRow})` : ""}`;
}

/** The sentence a screen reader gets for the picture: where each token is, and what the console can do. */
function describe(tokens: DiagramToken[], phase: InstallationPhase, installationWide: LifecycleTransition[]): string {
  const where =
    tokens.length === 0
      ? `The installation is ${lifecycleState(phase === "active" ? "needs_reinstall" : phase).label.toLowerCase()}: it holds no token.`
      : tokens
          .map((t) => `The ${KIND_LABEL[t.kind]} is in "${lifecycleState(t.state).label}"${t.holdsRefresh ? ", with its single-use refresh token" : ""}.`)
          .join(" ");
  const offered = [...new Map([...tokens.flatMap((t) => t.transitions), ...installationWide].map((t) => [t.id, t])).values()];
  return `${where} From here the console can take: ${offered.length > 0 ? offered.map(transitionName).join(", ") : "nothing"}.`;
}

/**
 * The spec's states and transitions (section 3) drawn for one installation: each token's current state
 * lit and tagged (bot, user), the arrows the console can take from there lit too; the buttons that take
 * them are beside it, with the tokens. The picture is one image to a screen reader (role="img" with a
 * title and a description of where each token stands); the list under it says the same in text: every
 * state and every row of the table, the current ones marked.
 */
export function LifecycleDiagram({
  name,
  tokens,
  phase,
  installationWide,
}: {
  name: string;
  tokens: DiagramToken[];
  phase: InstallationPhase;
  installationWide: LifecycleTransition[];
}) {
  const id = useId();
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  const markerId = `${id}-arrow`;
  const occupants = occupantsOf(tokens, phase);
  const available = new Set<TransitionId>([...tokens.flatMap((t) => t.transitions.map((x) => x.id)), ...installationWide.map((x) => x.id)]);
  const description = describe(tokens, phase, installationWide);
  const offeredFor = (transition: LifecycleTransition) => [
    ...tokens.filter((t) => t.transitions.some((x) => x.id === transition.id)).map((t) => KIND_LABEL[t.kind]),
    ...(installationWide.some((x) => x.id === transition.id) ? ["the installation"] : []),
  ];

  return (
    <div className="space-y-3">
      <svg
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        viewBox="0 0 360 512"
        className="block h-auto w-full max-w-[26rem]"
        data-testid="lifecycle-diagram"
      >
        <title id={titleId}>{`Token lifecycle of ${name}`}</title>
        <desc id={descId}>{description}</desc>
        <defs>
          {(["idle", "lit"] as const).map((kind) => (
            <marker key={kind} id={`${markerId}-${kind}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M0 0 L10 5 L0 10 z" className={kind === "lit" ? "fill-emerald-700" : "fill-slate-500"} />
            </marker>
          ))}
        </defs>

        {ARROWS.map((arrow, i) => {
          const lit = arrow.transitions.some((t) => available.has(t));
          const stroke = lit ? "stroke-emerald-700" : "stroke-slate-400";
          return (
            <g key={i}>
              {arrow.joins?.map((join) => (
                <path key={join} d={join} fill="none" strokeWidth={lit ? 2.5 : 1.5} className={stroke} />
              ))}
              <path d={arrow.path} fill="none" strokeWidth={lit ? 2.5 : 1.5} className={stroke} markerEnd={`url(#${markerId}-${lit ? "lit" : "idle"})`} />
              {arrow.badge && (
                <g>
                  <rect
                    x={arrow.badge.x - (arrow.badge.text.length > 1 ? 12 : 8)}
                    y={arrow.badge.y - 8}
                    width={arrow.badge.text.length > 1 ? 24 : 16}
                    height={16}
                    rx={8}
                    className={lit ? "fill-emerald-700" : "fill-white stroke-slate-400"}
                  />
                  <text
                    x={arrow.badge.x}
                    y={arrow.badge.y + 3.5}
                    textAnchor="middle"
                    fontSize="10"
                    fontWeight="700"
                    className={lit ? "fill-white" : "fill-slate-700"}
                  >
                    {arrow.badge.text}
                  </text>
                </g>
              )}
              {arrow.labels.map((label) => (
                <text
                  key={label.text}
                  x={label.x}
                  y={label.y}
                  textAnchor={label.anchor ?? "start"}
                  fontSize={label.small ? 10 : 11}
                  fontWeight={lit && !label.small ? 700 : 400}
                  className={lit ? "fill-emerald-800" : "fill-slate-600"}
                >
                  {label.text}
                </text>
              ))}
            </g>
          );
        })}

        <g>
          <rect x={BOXES.install.x} y={BOXES.install.y} width={W} height={H} rx={30} className="fill-slate-100 stroke-slate-400" strokeDasharray="4 3" />
          <text x={BOXES.install.x + W / 2} y={BOXES.install.y + 26} textAnchor="middle" fontSize="13" fontWeight="600" className="fill-slate-900">
            Install
          </text>
          <text x={BOXES.install.x + W / 2} y={BOXES.install.y + 42} textAnchor="middle" fontSize="11" className="fill-slate-600">
            Add to workspace
          </text>
        </g>

        {LIFECYCLE_STATES.map((state) => {
          const box = BOXES[state.id];
          const here = occupants.get(state.id) ?? [];
          const tone = TONE[state.id];
          return (
            <g key={state.id} data-state={state.id} data-current={here.length > 0 ? "true" : undefined}>
              <rect
                x={box.x}
                y={box.y}
                width={W}
                height={H}
                rx={10}
                strokeWidth={here.length > 0 ? 3 : 1.25}
                className={here.length > 0 ? CURRENT_BOX[tone] : "fill-white stroke-slate-300"}
              />
              <text x={box.x + 10} y={box.y + 20} fontSize="13" fontWeight="600" className="fill-slate-900">
                {state.short}
              </text>
              <text x={box.x + 10} y={box.y + 35} fontSize="11" className="fill-slate-600">
                {SUBTITLES[state.id]}
              </text>
              {here.map((who, i) => {
                const width = who.length * 6.2 + 12;
                const x = box.x + 10 + here.slice(0, i).reduce((sum, w) => sum + w.length * 6.2 + 16, 0);
                return (
                  <g key={who}>
                    <rect x={x} y={box.y + 41} width={width} height={14} rx={7} className={CHIP[tone]} />
                    <text x={x + width / 2} y={box.y + 51.5} textAnchor="middle" fontSize="10" fontWeight="700" className="fill-white">
                      {who}
                    </text>
                  </g>
                );
              })}
            </g>
          );
        })}
      </svg>

      <details className="rounded-md border border-slate-200 text-sm">
        <summary className="cursor-pointer px-3 py-2 font-medium text-slate-800">The diagram as text</summary>
        <div className="space-y-3 border-t border-slate-100 px-3 py-3">
          <div>
            <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-600">States</h4>
            <ul className="mt-1 space-y-1" aria-label="States">
              {LIFECYCLE_STATES.map((state) => {
                const here = occupants.get(state.id) ?? [];
                return (
                  <li
                    key={state.id}
                    aria-current={here.length > 0 ? "true" : undefined}
                    className={here.length > 0 ? "font-medium text-slate-900" : "text-slate-700"}
                  >
                    {state.label}: {state.summary}
                    {here.length > 0 && (
                      <strong className="text-emerald-800">
                        {" "}
                        Current: {here.map((w) => (w === "installation" ? "the installation" : KIND_LABEL[w as TokenKind])).join(", ")}.
                      </strong>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
          <div>
            <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-600">Transitions (the spec&apos;s table, section 3)</h4>
            <ol className="mt-1 space-y-1.5" aria-label="Transitions">
              {LIFECYCLE_TRANSITIONS.map((t) => {
                const offered = offeredFor(t);
                return (
                  <li key={t.id} aria-current={offered.length > 0 ? "true" : undefined} className="text-slate-700">
                    <span className="font-mono text-xs text-slate-600">{t.specRow ? `Row ${t.specRow}` : "Console"}</span> · {t.state} →{" "}
                    <span className="font-medium text-slate-900">{t.trigger}</span> ({t.condition}) → {t.next}. {t.also}
                    {offered.length > 0 && <strong className="text-emerald-800"> The console can take it now for {offered.join(" and ")}.</strong>}
                  </li>
                );
              })}
            </ol>
          </div>
        </div>
      </details>
    </div>
  );
}
