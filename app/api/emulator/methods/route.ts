// GET /api/emulator/methods - The Web API methods the embedded emulator implements (404 against the platform)
import { readEmulatorMethods } from "@/lib/events/emulator-admin";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

export const GET = handleRoute(async () => Response.json(await readEmulatorMethods(), { headers: { "cache-control": "no-store" } }));
