// POST /api/app-config/token/rotate - tooling.tokens.rotate now: a new configuration token pair replaces the kept one
import { getAppConfigRuntime, rotateConfigTokenNow } from "@/lib/app-config";
import { handleRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

export const POST = handleRoute(async () => Response.json({ ok: true, configToken: await rotateConfigTokenNow(getAppConfigRuntime()) }), { mutating: true });
