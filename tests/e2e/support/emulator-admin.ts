import { test, type APIRequestContext, type APIResponse } from "@playwright/test";

/**
 * A POST to the embedded emulator's admin surface, as a script must send it: with an Origin naming the
 * console (the surface refuses other sites, lib/emulator/admin/admin-guard.ts) and `data` as JSON.
 */
export function postEmulatorAdmin(request: APIRequestContext, path: string, data: unknown): Promise<APIResponse> {
  const origin = test.info().project.use.baseURL;
  return request.post(`/emulator/admin/${path}`, { data, headers: origin ? { origin } : {} });
}
