import { describe, expect, it } from "vitest";
import { createLogger } from "@/lib/log";

describe("logger", () => {
  it("redacts tokens, refresh tokens, client secrets, cookies, authorization headers and webhook URLs", () => {
    const lines: string[] = [];
    const logger = createLogger("info", { write: (line: string) => lines.push(line) });
    logger.info(
      {
        // Made-up tokens, assembled so that nothing token-shaped sits in the repository.
        token: ["xoxb", "1111111111", "aaaaaaaaaa"].join("-"),
        access_token: "xoxe.xoxb-1-bbbbbbbbbbbb",
        grant: { refresh_token: "xoxe-1-cccccccccccc", client_secret: "s3cr3t-value" },
        request: { headers: { authorization: "Bearer xoxb-2222222222-dddd", cookie: "sb_inst_x=sealed" } },
        installation: { incomingWebhook: { url: "https://hooks.slack.com/services/T/B/secret" } },
        webhookUrl: "https://hooks.slack.com/services/T/B/secret2",
        team: "T123",
      },
      "event",
    );
    const out = lines.join("");
    for (const secret of ["xoxb-1111", "xoxe.xoxb", "xoxe-1-c", "s3cr3t", "Bearer", "sb_inst_x", "services/T/B"]) expect(out).not.toContain(secret);
    expect(out).toContain('"team":"T123"');
    expect(out).toContain("[redacted]");
  });
});
