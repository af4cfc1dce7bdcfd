import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LocalTime } from "@/components/local-time";
import { formatClockTime, formatDateTime } from "@/lib/format";

/**
 * Issue 22, item 16: times were written three ways (`14:13:08` by the timeline, `02:21:37 PM` by the feeds,
 * the browser's default elsewhere). One format now, the person's locale, written only in the browser.
 */

const AT = Date.UTC(2026, 10, 25, 14, 5, 9);
const UTC = { timeZone: "UTC" };

describe("one time format, the reader's locale", () => {
  it("writes the time of day as the locale does, to the second, without a padded 12-hour hour", () => {
    expect(formatClockTime(AT, { ...UTC, locale: "en-US" })).toBe("2:05:09 PM");
    expect(formatClockTime(AT, { ...UTC, locale: "en-GB" })).toBe("14:05:09");
    expect(formatClockTime(AT, { ...UTC, locale: "de-DE" })).toBe("14:05:09");
    expect(formatClockTime(Date.UTC(2026, 10, 25, 9, 5, 9), { ...UTC, locale: "en-US" })).toBe("9:05:09 AM");
  });

  it("writes the time to the minute where a page asks, as a chat client shows a message's time (issue 41)", () => {
    expect(formatClockTime(AT, { ...UTC, locale: "en-US", precision: "minute" })).toBe("2:05 PM");
    expect(formatClockTime(AT, { ...UTC, locale: "en-GB", precision: "minute" })).toBe("14:05");
    expect(formatDateTime(AT, { ...UTC, locale: "en-GB", precision: "minute" })).toBe("25 Nov 2026, 14:05");
    // The seconds' formatter is not the minutes': each asks its own.
    expect(formatClockTime(AT, { ...UTC, locale: "en-GB" })).toBe("14:05:09");
  });

  it("writes a date with the same time of day", () => {
    for (const locale of ["en-US", "en-GB", "fr-FR"]) {
      const withDate = formatDateTime(AT, { ...UTC, locale });
      expect(withDate).toContain(formatClockTime(AT, { ...UTC, locale }));
      expect(withDate).toContain("2026");
    }
  });

  it("writes no time on the server, whose locale and time zone are not the person's, so hydration cannot disagree", () => {
    const html = renderToString(createElement(LocalTime, { at: AT, date: "always" }));
    expect(html).toBe(`<time dateTime="${new Date(AT).toISOString()}"></time>`);
  });
});

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

describe("every page writes times through the one formatter", () => {
  it("no component or page formats a time of its own (toLocaleTimeString, toLocaleString of a Date, toLocaleDateString)", () => {
    const root = join(__dirname, "../../..");
    const offenders = [...sources(join(root, "components")), ...sources(join(root, "app"))].flatMap((file) => {
      const text = readFileSync(file, "utf8");
      const found = /toLocaleTimeString|toLocaleDateString|new Date\([^)]*\)\.toLocaleString|DateTimeFormat/.exec(text);
      return found ? [`${relative(root, file)}: ${found[0]}`] : [];
    });
    expect(offenders).toEqual([]);
  });
});
