import { describe, expect, it } from "vitest";
import { createHarness } from "./support/emulator-harness";

describe("the URLs the emulator hands out", () => {
  it("name its public base URL when one is set, whatever host the request arrived with", async () => {
    // Next.js hands the embedded emulator requests for 127.0.0.1 as localhost: the console's APP_ORIGIN must win.
    const h = createHarness({ basePath: "/emulator", publicBaseUrl: "http://127.0.0.1:3999/emulator/" });
    const { rotation } = await h.apps();
    const grant = await h.install(rotation, { scope: ["incoming-webhook", "users:read"] });
    expect(grant.incoming_webhook.url).toMatch(/^http:\/\/127\.0\.0\.1:3999\/emulator\/services\/T[^/]+\/B[^/]+\/[A-Za-z0-9]+$/);
    const members = (await h.call("users.list", { limit: "2" }, { token: grant.access_token })).body.members as { profile: { image_48: string } }[];
    expect(members[0]!.profile.image_48.startsWith("http://127.0.0.1:3999/emulator/")).toBe(true);
  });

  it("name the origin each request arrived at by default", async () => {
    const h = createHarness({ basePath: "/emulator" });
    const { rotation } = await h.apps();
    const grant = await h.install(rotation, { scope: ["incoming-webhook"] });
    expect(grant.incoming_webhook.url.startsWith(`${h.base}/services/`)).toBe(true);
  });
});
