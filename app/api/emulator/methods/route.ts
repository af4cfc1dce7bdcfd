// GET /api/emulator/methods - The Web API methods the emulator implements, embedded or standalone through PLATFORM_BASE_URL (404 not_emulator against the platform)
import { readEmulatorMethods } from "@/lib/emulator-admin/client";
import { handleRoute } from "@/lib/access/handle-route";
import { requireUpstreamEmulator } from "@/lib/upstream-emulator";

export const dynamic = "force-dynamic";

// The explorer in the browser reads them here rather than from the admin surface, which an exposed console keeps to its token.
// The real platform describes its methods in its documentation, not on an admin surface: nothing is asked of it.
const NO_LIST = "it publishes its methods in its documentation; the console asks only an emulator for its list.";

export const GET = handleRoute(async () =>
  Response.json({ methods: await readEmulatorMethods(await requireUpstreamEmulator(NO_LIST)) }, { headers: { "cache-control": "no-store" } }),
);
