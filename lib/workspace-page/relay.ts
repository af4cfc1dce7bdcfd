import "server-only";
import { z } from "zod";
import { requireAdmin } from "@/lib/access/viewer";
import { getConfig } from "@/lib/config";
import { openWorkspaceStream } from "@/lib/emulator-admin/workspace";
import { personStreamKey, StreamLimits, STREAM_RETRY_AFTER_S } from "@/lib/events/viewers";
import { AppError } from "@/lib/http/app-error";
import { clientAddress } from "@/lib/http/client-address";
import { processSingleton } from "@/lib/process-singleton";
import { readSignedInPerson } from "@/lib/signin/signed-in-cookie";
import type { Viewer } from "@/lib/viewer";
import { requireWorkspaceEmulator } from "./target";

/**
 * GET /api/workspace/stream: the emulator's live stream of one member's workspace changes, passed on to the
 * browser as it comes. Bounded per viewer as the events stream is: a few per person and per address, and in
 * all no more than the emulator keeps open (it bounds each stream's bytes behind itself). When the browser
 * goes, the emulator's stream ends with it.
 */

/** Tabs of the Workspace page one person (or, without sign-in, one address) may keep live at once. */
const WORKSPACE_STREAM_BOUNDS = { perSession: 4, perAddress: 8, anonymousPerAddress: 4, anonymous: 32, perProcess: 32 };

const limits = () => processSingleton("workspaceStreamLimits", () => new StreamLimits(WORKSPACE_STREAM_BOUNDS));

const Id = z.string().regex(/^[A-Z][A-Z0-9]{1,31}$/, "an id such as U0123ABCD");
export const StreamQuery = z.object({ user: Id.optional(), team: Id.optional() });

export async function relayWorkspaceStream(request: Request, viewer: Viewer, query: z.infer<typeof StreamQuery>): Promise<Response> {
  requireAdmin(viewer, "watch the emulated workspace: it reads every conversation");
  const target = await requireWorkspaceEmulator();
  const address = clientAddress(request.headers, getConfig().trustedProxyHops);
  const admission = limits().admit(personStreamKey(await readSignedInPerson()), address, false);
  if (!admission.ok) {
    throw new AppError("too_many_streams", {
      message: "You already have the most live Workspace pages open that one person may: close another tab, or wait.",
      headers: { "Retry-After": String(STREAM_RETRY_AFTER_S) },
    });
  }
  let upstream: ReadableStream<Uint8Array>;
  try {
    upstream = await openWorkspaceStream(target, { user: query.user, team_id: query.team }, request.signal);
  } catch (error) {
    admission.release();
    throw error;
  }
  const reader = upstream.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { value, done } = await reader.read();
          if (done) {
            admission.release();
            controller.close();
          } else controller.enqueue(value);
        } catch {
          admission.release();
          controller.error(new Error("the emulator's workspace stream ended"));
        }
      },
      cancel() {
        admission.release();
        void reader.cancel().catch(() => {});
      },
    },
    // Nothing is held here: a chunk is read from the emulator only when the browser's connection takes one.
    { highWaterMark: 0 },
  );
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
