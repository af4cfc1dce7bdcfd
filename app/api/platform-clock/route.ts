// POST /api/platform-clock - Moves the emulator's clock forward and says what that changed (emulator upstreams only)
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";
import { ClockMoveSchema, movePlatformClock } from "@/lib/platform-clock/move-platform-clock";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (request, _context, viewer) => Response.json(await movePlatformClock(viewer, await parseJsonBody(request, ClockMoveSchema))),
  {
    mutating: true,
  },
);
