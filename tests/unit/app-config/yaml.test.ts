import { describe, expect, it } from "vitest";
import { toYaml } from "@/lib/app-config/universal/yaml";

describe("toYaml", () => {
  it("writes a manifest block style, two spaces per level, lists under their key", () => {
    const manifest = {
      _metadata: { major_version: 1, minor_version: 1 },
      display_information: { name: "Switchboard Rotation", background_color: "#4A154B" },
      oauth_config: { redirect_urls: ["http://localhost:3000/oauth/callback"], scopes: { bot: ["chat:write", "users:read"] } },
      settings: { event_subscriptions: { bot_events: ["app_mention"] }, token_rotation_enabled: true, org_deploy_enabled: false },
    };
    expect(toYaml(manifest)).toBe(
      [
        "_metadata:",
        "  major_version: 1",
        "  minor_version: 1",
        "display_information:",
        '  name: "Switchboard Rotation"',
        '  background_color: "#4A154B"',
        "oauth_config:",
        "  redirect_urls:",
        "    - http://localhost:3000/oauth/callback",
        "  scopes:",
        "    bot:",
        "      - chat:write",
        "      - users:read",
        "settings:",
        "  event_subscriptions:",
        "    bot_events:",
        "      - app_mention",
        "  token_rotation_enabled: true",
        "  org_deploy_enabled: false",
        "",
      ].join("\n"),
    );
  });

  it("puts a collection inside a list on the dash's line", () => {
    expect(toYaml({ commands: [{ command: "/deploy", usage_hint: "[env]" }, [1, 2]] })).toBe(
      ["commands:", "  - command: /deploy", '    usage_hint: "[env]"', "  - - 1", "    - 2", ""].join("\n"),
    );
  });

  it("quotes every string a YAML reader would take for something else", () => {
    const risky = [
      "",
      "yes",
      "No",
      "off",
      "null",
      "~",
      "true",
      "123",
      "1e3",
      "0x1F",
      "-lead",
      "a: b",
      "ends:",
      "#hash",
      "two words",
      " pad",
      "@at",
      "*star",
      "&amp",
      "!tag",
      "%pct",
      "[x]",
      "{x}",
      "a,b",
      "?q",
      "|pipe",
      ">fold",
      "'single'",
      "line\nbreak",
      "tab\there",
      "ünïcode",
    ];
    for (const value of risky) {
      const line = toYaml({ k: value }).slice("k: ".length, -1);
      expect(line.startsWith('"'), value).toBe(true);
      expect(JSON.parse(line)).toBe(value);
    }
  });

  it("leaves plain the strings every reader takes back as the same string", () => {
    for (const value of ["chat:write", "users:read.email", "app_mention", "https://example.com/a/b", "/deploy", "xoxe-not-a-secret"]) {
      expect(toYaml({ k: value })).toBe(`k: ${value}\n`);
    }
  });

  it("escapes the characters YAML does not allow unescaped, and writes empty collections and null inline", () => {
    expect(toYaml({ k: "a\u0085b\u007fc\u2028" })).toBe('k: "a\\u0085b\\u007fc\\u2028"\n');
    expect(toYaml({ a: [], b: {}, c: null, d: -1.5 })).toBe("a: []\nb: {}\nc: null\nd: -1.5\n");
    expect(toYaml([])).toBe("[]\n");
  });
});
