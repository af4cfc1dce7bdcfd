import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";

/**
 * Issue 36 item 9: `npm start` builds only when the build is not current (scripts/build-current.sh), so a
 * restart serves at once. Run on a checkout of its own: a build is current while no input of it (a source, a
 * folder whose files were added or removed, the lock file) is newer than its BUILD_ID.
 */
const SCRIPT = path.resolve("scripts/build-current.sh");
let root: string;

const at = (file: string, seconds: number) => utimesSync(path.join(root, file), seconds, seconds);
const check = () => spawnSync("bash", [SCRIPT, ".next"], { cwd: root, encoding: "utf8" });

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "switchboard-build-current-"));
  mkdirSync(path.join(root, "app"));
  mkdirSync(path.join(root, "lib"));
  mkdirSync(path.join(root, ".next"));
  writeFileSync(path.join(root, "app", "page.tsx"), "export default function Page() {}\n");
  writeFileSync(path.join(root, "lib", "config.ts"), "export {};\n");
  writeFileSync(path.join(root, "package-lock.json"), "{}\n");
  writeFileSync(path.join(root, ".next", "BUILD_ID"), "abc\n");
  writeFileSync(path.join(root, ".next", "BUILD_COMPLETE"), "2026-11-28T00:00:00Z\n");
  for (const entry of ["app/page.tsx", "app", "lib/config.ts", "lib", "package-lock.json"]) at(entry, 1_000);
  at(".next/BUILD_ID", 2_000);
  at(".next/BUILD_COMPLETE", 2_000);
  return () => rmSync(root, { recursive: true, force: true });
});

describe("whether the build is current", () => {
  it("is current when every input is older than the build", () => {
    expect(check().status).toBe(0);
  });

  it("is not when a source was edited after it, and names the source", () => {
    at("app/page.tsx", 3_000);
    const result = check();
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("app/page.tsx changed after the build in .next");
  });

  it("is not when a file was added or removed after it (its folder's time moved), or the lock file changed", () => {
    rmSync(path.join(root, "lib", "config.ts"));
    expect(check().status).toBe(1);
    at("lib", 1_000);
    expect(check().status).toBe(0);
    at("package-lock.json", 3_000);
    expect(check().status).toBe(1);
  });

  it("is not when the last build did not finish (next build writes BUILD_ID part-way; a failed or stopped one leaves it)", () => {
    rmSync(path.join(root, ".next", "BUILD_COMPLETE"));
    at(".next/BUILD_ID", 3_000);
    const result = check();
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("the build in .next did not finish");
  });

  it("is not when there is no build", () => {
    rmSync(path.join(root, ".next", "BUILD_ID"));
    const result = check();
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("there is no build in .next");
  });
});
