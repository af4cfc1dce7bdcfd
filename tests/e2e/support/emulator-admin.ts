import { test, type APIRequestContext, type APIResponse } from "@playwright/test";

/**
 * A POST to the embedded emulator's admin surface, as a script must send it: with an Origin naming the
 * console (the surface refuses other sites, lib/emulator/admin/admin-guard.ts) and `data` as JSON. A reset
 * also forgets every installation in the console's store: installations live on the server now, shared by
 * every browser, and a test that starts from a fresh emulator starts from an empty console too (its
 * request history cleared as well: the explorer's panel shows the operator's newest entries).
 */
export async function postEmulatorAdmin(
  request: APIRequestContext,
  path: string,
  data: unknown,
  /** `keepInstallations`: a reset mid-test that makes the platform forget tokens the console still holds. */
  options: { keepInstallations?: boolean } = {},
): Promise<APIResponse> {
  const origin = test.info().project.use.baseURL;
  const headers: Record<string, string> = origin ? { origin } : {};
  if (path === "reset" && !options.keepInstallations) {
    await forgetAllInstallations(request, headers);
    await request.delete("/api/history", { headers });
  }
  return request.post(`/emulator/admin/${path}`, { data, headers });
}

async function forgetAllInstallations(request: APIRequestContext, headers: Record<string, string>): Promise<void> {
  // GET /api/session answers a page at a time: forget the first page until none is left.
  for (;;) {
    const session = await request.get("/api/session?limit=200", { headers: { ...headers, "x-switchboard-request": "1" } });
    if (!session.ok()) throw new Error(`GET /api/session answered ${session.status()}`);
    const { installations } = (await session.json()) as { installations: { id: string }[] };
    if (installations.length === 0) return;
    for (const { id } of installations) {
      const forgotten = await request.delete(`/api/installations/${encodeURIComponent(id)}`, { headers });
      if (!forgotten.ok()) throw new Error(`DELETE /api/installations/${id} answered ${forgotten.status()}`);
    }
  }
}
