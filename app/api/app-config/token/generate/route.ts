// POST /api/app-config/token/generate - Embedded emulator only: issue a configuration token pair and seal it (never shown)
import { generateEmulatorConfigToken } from "@/lib/app-config";
import { handleRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

export const POST = handleRoute(async () => Response.json({ ok: true, configToken: await generateEmulatorConfigToken() }), { mutating: true });
