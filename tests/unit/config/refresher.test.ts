import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";

const PASSWORD = "a-session-password-of-at-least-thirty-two-chars";

describe("the background refresher's settings", () => {
  it("is on by default, refreshing each rotating token two hours before it expires, and hands out tokens good for an hour", () => {
    const config = parseConfig({ SESSION_PASSWORD: PASSWORD });
    expect(config.refresher).toEqual({ enabled: true, horizonS: 7200, spreadS: 600, intervalS: 30, alert: null });
    expect(config.tokenApi).toEqual({ marginS: 3600, ratePerS: 200 });
  });

  it("refuses a token API margin and refresh horizon that add up to more than a token's 12 hours, saying why", () => {
    expect(() => parseConfig({ SESSION_PASSWORD: PASSWORD, REFRESH_HORIZON_S: "36000", TOKEN_API_MARGIN_S: "10000" })).toThrow(ConfigError);
    expect(() => parseConfig({ SESSION_PASSWORD: PASSWORD, REFRESH_HORIZON_S: "36000", TOKEN_API_MARGIN_S: "10000" })).toThrow(/more than a token's 12 hours/);
    expect(parseConfig({ SESSION_PASSWORD: PASSWORD, REFRESH_HORIZON_S: "36000", TOKEN_API_MARGIN_S: "7200" }).tokenApi.marginS).toBe(7200);
  });

  it("takes an alert channel as a webhook or as an installation with a channel, never half of one", () => {
    expect(parseConfig({ SESSION_PASSWORD: PASSWORD, REFRESH_ALERT_WEBHOOK_URL: "https://hooks.slack.com/services/T1/B1/x" }).refresher.alert).toEqual({
      kind: "webhook",
      url: "https://hooks.slack.com/services/T1/B1/x",
    });
    expect(parseConfig({ SESSION_PASSWORD: PASSWORD, REFRESH_ALERT_INSTALLATION: "T1-A1", REFRESH_ALERT_CHANNEL: "C1" }).refresher.alert).toEqual({
      kind: "installation",
      installationId: "T1-A1",
      channel: "C1",
    });
    expect(() => parseConfig({ SESSION_PASSWORD: PASSWORD, REFRESH_ALERT_INSTALLATION: "T1-A1" })).toThrow(/go together/);
  });

  it("can be turned off", () => {
    expect(parseConfig({ SESSION_PASSWORD: PASSWORD, BACKGROUND_REFRESH: "false" }).refresher.enabled).toBe(false);
  });
});
