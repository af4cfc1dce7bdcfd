// GET, POST /api/call/{method} - Any Web API method with an installation's bot or user token; the platform's JSON as it came
import { handleRoute } from "@/lib/http";
import { proxyMethodCall } from "@/lib/call/call-proxy";

export const dynamic = "force-dynamic";

const methodOf = async (params: Promise<Record<string, unknown>>) => String((await params).method ?? "");

export const GET = handleRoute(async (request, { params }) => proxyMethodCall(request, await methodOf(params)), { rejectCrossSite: true });
export const POST = handleRoute(async (request, { params }) => proxyMethodCall(request, await methodOf(params)), { mutating: true });
