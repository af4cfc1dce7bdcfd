"use client";

import { Element } from "./element";
import { safeHref } from "./safe-url";
import { asObject, asObjects, asString, textOf, type Json } from "./shape";
import { PlainText, TextObject } from "./text";

/** An image from a block: only http(s) sources load; its alt text is required by the platform and read here. */
export function BlockImage({ url, alt, className }: { url: unknown; alt: string; className: string }) {
  const src = safeHref(url);
  if (!src || src.startsWith("mailto:")) return <span className="text-xs text-slate-500">[image: {alt}]</span>;
  // eslint-disable-next-line @next/next/no-img-element -- an app's image on any host: next/image would need each host configured.
  return <img src={src} alt={alt} className={className} loading="lazy" />;
}

/** section: text, or fields in two columns, and an accessory beside them. */
export function SectionBlock({ block, blockId }: { block: Json; blockId: string }) {
  const accessory = asObject(block.accessory);
  const fields = asObjects(block.fields);
  return (
    <div className="flex items-start gap-3">
      <div className="min-w-0 flex-1 space-y-2">
        {block.text !== undefined && <TextObject value={block.text} />}
        {fields.length > 0 && (
          <div className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2">
            {fields.map((field, i) => (
              <TextObject key={i} value={field} />
            ))}
          </div>
        )}
      </div>
      {accessory &&
        (accessory.type === "image" ? (
          <BlockImage url={accessory.image_url} alt={textOf(accessory.alt_text)} className="h-20 w-20 shrink-0 rounded-md object-cover" />
        ) : (
          <div className="shrink-0">
            <Element element={accessory} placement={{ blockId }} />
          </div>
        ))}
    </div>
  );
}

/** context: small images and texts in a row. */
export function ContextBlock({ block }: { block: Json }) {
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
      {asObjects(block.elements).map((element, i) =>
        element.type === "image" ? (
          <BlockImage key={i} url={element.image_url} alt={asString(element.alt_text) ?? ""} className="h-4 w-4 rounded-sm" />
        ) : (
          <TextObject key={i} value={element} />
        ),
      )}
    </div>
  );
}

export function HeaderBlock({ block }: { block: Json }) {
  return (
    <h3 className="text-lg font-bold text-slate-900">
      <PlainText text={textOf(block.text)} emoji={asObject(block.text)?.emoji !== false} />
    </h3>
  );
}

export function DividerBlock() {
  return <hr className="border-slate-200" />;
}

/** image: its title above it, the image at most the message's width. */
export function ImageBlock({ block }: { block: Json }) {
  return (
    <figure className="space-y-1">
      {block.title !== undefined && (
        <figcaption className="text-sm text-slate-700">
          <PlainText text={textOf(block.title)} />
        </figcaption>
      )}
      <BlockImage url={block.image_url} alt={asString(block.alt_text) ?? ""} className="max-h-80 max-w-full rounded-md border border-slate-200" />
    </figure>
  );
}
