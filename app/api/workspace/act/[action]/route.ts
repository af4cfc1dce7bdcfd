// POST /api/workspace/act/{post|dm|react|open-home|command|click|suggest|shortcut|submit|close-view|join-team} - A member of the emulated workspace acts (admins; emulator upstreams only)
import { handleRoute } from "@/lib/access/handle-route";
import { parseJsonBody } from "@/lib/http";
import { actAsMember } from "@/lib/workspace-page/service";
import { z } from "zod";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (request, context, viewer) => {
    const body = await parseJsonBody(request, z.record(z.string(), z.unknown()));
    return Response.json(await actAsMember(viewer, String((await context.params).action ?? ""), body));
  },
  // A message is at most 40,000 characters; a modal's values a few kilobytes.
  { mutating: true, maxBodyBytes: 192 * 1024 },
);
