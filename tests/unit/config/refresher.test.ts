import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";

const PASSWORD = "a-session-password-of-at-least-thirty-two-chars";

describe("the background refresher's settings", () => {
  it("is on by default, refreshing each rotating token two hours before it expires, and hands out tokens good for an hour", () => {
    const config = parseConfig({ SESSION_PASSWORD: PASSWORD });
    expect(config.refresher).toEqual({ enabled: true, horizonS: 7200, spreadS: 600, intervalS: 30, concurrency: 4, alert: null });
    expect(config.tokenApi).toEqual({ marginS: 3600, ratePerS: 200 });
  });

  it("refuses a token API margin that the refresh after next could cut short, saying why", () => {
    const env = { SESSION_PASSWORD: PASSWORD };
    expect(() => parseConfig({ ...env, REFRESH_HORIZON_S: "36000", TOKEN_API_MARGIN_S: "7200" })).toThrow(/more than a token's 12 hours/);
    // A margin larger than the horizon makes the API refresh early: margin twice over must fit.
    expect(() => parseConfig({ ...env, REFRESH_HORIZON_S: "300", TOKEN_API_MARGIN_S: "30000" })).toThrow(ConfigError);
    // The spread counts with the horizon.
    expect(() => parseConfig({ ...env, REFRESH_HORIZON_S: "21000", REFRESH_SPREAD_S: "3600", TOKEN_API_MARGIN_S: "21000" })).toThrow(ConfigError);
    expect(parseConfig({ ...env, REFRESH_HORIZON_S: "21000", REFRESH_SPREAD_S: "600", TOKEN_API_MARGIN_S: "21000" }).tokenApi.marginS).toBe(21000);
    // Calls refreshing within a window as large are said, not refused.
    const warnings: string[] = [];
    parseConfig({ ...env, REFRESH_WINDOW_S: "43200" }, (m) => warnings.push(m));
    expect(warnings.some((w) => w.includes("REFRESH_WINDOW_S (43200) plus TOKEN_API_MARGIN_S"))).toBe(true);
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
