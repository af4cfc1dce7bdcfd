"use client";

import { useDeferredValue, useMemo, useState } from "react";
import type { ActionEvent, StateValues } from "@/components/blocks/actions";
import { MessageView } from "@/components/blocks/message";
import { ViewSurface } from "@/components/blocks/view";
import { PlatformJson } from "@/components/platform-text";
import { Panel } from "@/components/ui/primitives";
import type { ExplorerRequest } from "@/lib/explorer/params";
import { previewOf } from "./preview-source";

/** What the last control pressed in the preview would send the app. */
type Sent = { kind: "action"; event: ActionEvent } | { kind: "submit"; values: StateValues };

/**
 * The message or view a chat.* or views.* request would show a member, drawn as it is typed. Its controls
 * work: what a click or a submit would send the app shows under it. Nothing for other methods.
 */
export function BlocksPreview({ request, appName }: { request: ExplorerRequest; appName: string }) {
  // Typing stays quick on a long argument: the preview catches up between keystrokes.
  const extra = useDeferredValue(request.extra);
  const preview = useMemo(() => previewOf(request.method, new Map(extra.map((p) => [p.key, p.value]))), [request.method, extra]);
  const [sent, setSent] = useState<Sent | null>(null);
  if (!preview) return null;
  const onAction = (event: ActionEvent) => setSent({ kind: "action", event });

  return (
    <Panel title="Preview" actions={<span className="text-xs text-slate-600">as a member sees it, before it is sent</span>}>
      <div className="space-y-3">
        {preview.notes.map((note) => (
          <p key={note} className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {note}
          </p>
        ))}
        {preview.kind === "message" ? (
          <div className="rounded-md border border-slate-100 bg-white px-3 py-3">
            {preview.ephemeral && <p className="mb-2 text-xs text-slate-600">Only visible to you: the member the user argument names</p>}
            {preview.message.text || preview.message.blocks || preview.message.attachments ? (
              <MessageView message={preview.message} author={{ name: appName, app: true }} time="now" handlers={{ onAction }} />
            ) : (
              <p className="text-sm text-slate-600">Type text, blocks or attachments to see the message.</p>
            )}
          </div>
        ) : (
          preview.view && (
            <div className="rounded-md bg-slate-100 p-3">
              <ViewSurface
                key={request.method}
                view={preview.view}
                appName={appName}
                handlers={{ onAction }}
                onSubmit={(values) => setSent({ kind: "submit", values })}
              />
            </div>
          )
        )}
        {sent && (
          <div role="status" className="space-y-1 text-xs text-slate-700">
            <p>
              {sent.kind === "action" ? (
                <>
                  A member&apos;s click would send the app <code className="font-mono">block_actions</code> with <code className="font-mono">actions[0]</code>:
                </>
              ) : (
                <>
                  Submit would send the app <code className="font-mono">view_submission</code> with <code className="font-mono">view.state.values</code>:
                </>
              )}
            </p>
            <pre className="max-h-48 overflow-auto rounded bg-slate-50 p-2 font-mono">
              <PlatformJson value={sent.kind === "action" ? sent.event.action : sent.values} />
            </pre>
          </div>
        )}
      </div>
    </Panel>
  );
}
