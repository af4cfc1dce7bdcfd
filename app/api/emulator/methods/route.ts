// GET /api/emulator/methods - The Web API methods the embedded emulator implements (404 against the platform)
import { readEmulatorMethods } from "@/lib/emulator-admin/client";
import { configuredEmulator } from "@/lib/emulator-admin/transport";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

// The explorer in the browser reads them here rather than from the admin surface, which an exposed console keeps to its token.

export const GET = handleRoute(async () =>
  Response.json({ methods: await readEmulatorMethods(configuredEmulator()) }, { headers: { "cache-control": "no-store" } }),
);
