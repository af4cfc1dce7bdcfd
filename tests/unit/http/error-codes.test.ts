import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AppError, isConsoleError, isRelayedError } from "@/lib/http/app-error";
import { CONSOLE_ERRORS } from "@/lib/http/error-codes";
import { PLATFORM_ERRORS } from "@/lib/platform/errors";

const ROOT = new URL("../../../", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, ROOT), "utf8");
const ERRORS_DOC = read("docs/errors.md");
/**
 * The README and the console's documentation, each with its text. docs/emulator.md is left out: the statuses it
 * names are the emulator's own answers (its admin surface's `401 admin_token_required`, the platform's
 * `410 channel_is_archived` to a webhook), which the console neither answers nor relays with those statuses.
 */
const CONSOLE_DOCS = [
  "README.md",
  ...readdirSync(new URL("docs/", ROOT))
    .filter((name) => name.endsWith(".md") && name !== "emulator.md")
    .map((name) => `docs/${name}`),
].map((file) => ({ file, text: read(file) }));

type Row = { status: number; message: string };
const rowIn = (table: Record<string, Row>, code: string): Row | undefined => (Object.hasOwn(table, code) ? table[code] : undefined);

/** The rows of the error codes table in docs/errors.md, as they read. */
function documentedErrorRows(): string[] {
  return ERRORS_DOC.split("\n").filter((line) => /^\| `[a-z_]+` \|/.test(line));
}

describe("the console's error codes", () => {
  it("are docs/errors.md's table, row for row: code, status and message", () => {
    const expected = Object.entries(CONSOLE_ERRORS).map(([code, row]) => `| \`${code}\` | ${row.status} | ${row.message} |`);
    expect(documentedErrorRows(), "docs/errors.md's table should read (lib/http/error-codes.ts)").toEqual(expected);
  });

  it("answer with the status the README and docs/ give them wherever they name one, and so do the platform's codes they name", () => {
    const named = CONSOLE_DOCS.flatMap(({ file, text }) =>
      [...text.matchAll(/(?:\*\*)?(\d{3})(?:\*\*)?\s+`([a-z_]+)`/g)].map(([, status, code]) => ({ file, code: code!, status: Number(status) })),
    );
    expect(named.length).toBeGreaterThan(20);
    for (const { file, code, status } of named) {
      const row = rowIn(CONSOLE_ERRORS, code) ?? rowIn(PLATFORM_ERRORS, code);
      expect(row?.status, `${file}'s ${status} \`${code}\`: neither one of the console's codes nor a platform code the console relays with that status`).toBe(
        status,
      );
    }
  });

  it("are none of the platform's codes, which the console relays as they come", () => {
    expect(Object.keys(CONSOLE_ERRORS).filter((code) => Object.hasOwn(PLATFORM_ERRORS, code))).toEqual([]);
  });
});

describe("an AppError", () => {
  it("answers with its code's status and message, or the message its throw site gives, never another status", () => {
    expect(new AppError("needs_reinstall")).toMatchObject({ code: "needs_reinstall", status: 409, message: CONSOLE_ERRORS.needs_reinstall.message });
    expect(new AppError("payload_too_large", { message: "The request body is larger than 8 bytes." })).toMatchObject({
      status: 413,
      message: "The request body is larger than 8 bytes.",
    });
  });

  it("keeps a code relayed from upstream apart from the console's own of the same name", () => {
    const relayed = new AppError({ relayed: "request_url_not_verified", status: 409 }, { message: "The emulator answered request_url_not_verified." });
    const own = new AppError("request_url_not_verified");
    expect(isRelayedError(relayed, "request_url_not_verified")).toBe(true);
    expect(isConsoleError(relayed, "request_url_not_verified")).toBe(false);
    expect(isConsoleError(own, "request_url_not_verified")).toBe(true);
    expect(isRelayedError(own)).toBe(false);
  });

  it("tells the legacy app asked of the real platform (400 unknown_app) from an installation without an app id (409 no_app_id)", () => {
    expect(new AppError("unknown_app").status).toBe(400);
    expect(new AppError("no_app_id").status).toBe(409);
  });
});
