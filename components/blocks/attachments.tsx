"use client";

import { LocalTime } from "@/components/local-time";
import { BlockList } from "./block-list";
import { BlockImage } from "./layout-blocks";
import { asArray, asObjects, asString, type Json } from "./shape";
import { Mrkdwn, SafeLink } from "./text";

/** The platform's named colours; any other value is a hex colour, and anything else the default grey. */
const NAMED: Record<string, string> = { good: "#2eb67d", warning: "#ecb22e", danger: "#e01e5a" };

function barColor(color: unknown): string {
  if (typeof color !== "string") return "var(--color-slate-300)";
  if (color in NAMED) return NAMED[color]!;
  const hex = color.startsWith("#") ? color : `#${color}`;
  return /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i.test(hex) ? hex : "var(--color-slate-300)";
}

/** Which of the legacy fields are mrkdwn: the ones `mrkdwn_in` names, or all of them when it is absent. */
function TextField({ attachment, field, className }: { attachment: Json; field: string; className?: string }) {
  const text = asString(attachment[field]);
  if (!text) return null;
  const markdown = !Array.isArray(attachment.mrkdwn_in) || attachment.mrkdwn_in.includes(field);
  return <div className={className}>{markdown ? <Mrkdwn text={text} /> : <p className="whitespace-pre-wrap">{text}</p>}</div>;
}

function Attachment({ attachment }: { attachment: Json }) {
  const title = asString(attachment.title);
  const titleLink = asString(attachment.title_link);
  const fields = asObjects(attachment.fields);
  const footer = asString(attachment.footer);
  const ts = typeof attachment.ts === "number" || typeof attachment.ts === "string" ? Number(attachment.ts) : Number.NaN;
  return (
    <div className="space-y-1">
      <TextField attachment={attachment} field="pretext" />
      <div className="flex gap-3">
        <div className="w-1 shrink-0 rounded-full" style={{ backgroundColor: barColor(attachment.color) }} aria-hidden />
        <div className="min-w-0 flex-1 space-y-1.5 py-0.5">
          {asString(attachment.author_name) && <p className="text-xs font-semibold text-slate-700">{asString(attachment.author_name)}</p>}
          {title && <p className="font-semibold">{titleLink ? <SafeLink url={titleLink}>{title}</SafeLink> : title}</p>}
          <TextField attachment={attachment} field="text" />
          {fields.length > 0 && (
            <dl className="grid grid-cols-2 gap-x-4 gap-y-1.5">
              {fields.map((f, i) => (
                <div key={i} className={f.short === true ? "" : "col-span-2"}>
                  <dt className="text-sm font-semibold">{asString(f.title)}</dt>
                  <dd className="text-sm">
                    <Mrkdwn text={asString(f.value) ?? ""} />
                  </dd>
                </div>
              ))}
            </dl>
          )}
          {asArray(attachment.blocks).length > 0 && <BlockList blocks={asArray(attachment.blocks)} />}
          {attachment.image_url !== undefined && (
            <BlockImage url={attachment.image_url} alt={title ?? "attached image"} className="max-h-60 max-w-full rounded-md border border-slate-200" />
          )}
          {(footer || Number.isFinite(ts)) && (
            <p className="text-xs text-slate-600">
              {footer}
              {footer && Number.isFinite(ts) && " · "}
              {Number.isFinite(ts) && <LocalTime at={ts * 1000} date="auto" precision="minute" />}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}

/** Legacy secondary attachments: each with its colour bar, pretext, title, text, fields and footer. */
export function Attachments({ attachments }: { attachments: readonly unknown[] }) {
  return (
    <div className="space-y-2">
      {asObjects(attachments).map((a, i) => (
        <Attachment key={i} attachment={a} />
      ))}
    </div>
  );
}
