/**
 * Issue 39, fidelity defect 5: the platform warns `missing_charset` when a JSON body's Content-Type names no
 * charset and `superfluous_charset` when a form body's names one, on the answer's `warning` and
 * `response_metadata.warnings`; a body sent as it recommends gets no warning.
 */
import { describe, expect, it } from "vitest";
import { BASE, install, startEmulator, type Json } from "./workspace/support";

const MISSING_MESSAGE = "[WARN] A Content-Type HTTP header was presented but did not declare a charset, such as a 'utf-8'";

async function post(emulator: ReturnType<typeof startEmulator>["emulator"], method: string, contentType: string, body: string, token: string) {
  const response = await emulator.fetch(
    new Request(`${BASE}/api/${method}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": contentType }, body }),
  );
  return (await response.json()) as Json;
}

describe("charset warnings", () => {
  it("warns missing_charset on a JSON body without a charset, with the platform's [WARN] message, and still answers", async () => {
    const { emulator } = startEmulator({ users: 20 });
    const { botToken } = await install(emulator);
    const answer = await post(emulator, "auth.test", "application/json", "{}", botToken);
    expect(answer.ok).toBe(true);
    expect(answer.user_id).toBeTruthy();
    expect(answer.warning).toBe("missing_charset");
    expect(answer.response_metadata).toEqual({ warnings: ["missing_charset"], messages: [MISSING_MESSAGE] });
  });

  it("warns superfluous_charset on a form body that names a charset", async () => {
    const { emulator } = startEmulator({ users: 20 });
    const { botToken } = await install(emulator);
    const answer = await post(emulator, "auth.test", "application/x-www-form-urlencoded; charset=utf-8", "", botToken);
    expect(answer).toMatchObject({ ok: true, warning: "superfluous_charset", response_metadata: { warnings: ["superfluous_charset"] } });
  });

  it("gives no warning to a form body without a charset or a JSON body with one", async () => {
    const { emulator } = startEmulator({ users: 20 });
    const { botToken } = await install(emulator);
    for (const type of ["application/x-www-form-urlencoded", "application/json; charset=utf-8"]) {
      const answer = await post(emulator, "auth.test", type, type.startsWith("application/json") ? "{}" : "", botToken);
      expect(answer.ok, type).toBe(true);
      expect(answer.warning, type).toBeUndefined();
      expect(answer.response_metadata, type).toBeUndefined();
    }
  });

  it("rides beside a refusal, and beside message_truncated, keeping both", async () => {
    const { emulator } = startEmulator({ users: 20 });
    const { botToken } = await install(emulator);
    const refused = await post(emulator, "chat.postMessage", "application/json", JSON.stringify({ channel: "C_NOPE", text: "hi" }), botToken);
    expect(refused).toMatchObject({ ok: false, error: "channel_not_found", warning: "missing_charset" });

    const general = emulator.state.workspace.channels.find((c) => c.isGeneral)!;
    await post(emulator, "conversations.join", "application/json; charset=utf-8", JSON.stringify({ channel: general.id }), botToken);
    const long = await post(emulator, "chat.postMessage", "application/json", JSON.stringify({ channel: general.id, text: "x".repeat(40_001) }), botToken);
    expect(long.ok).toBe(true);
    expect(long.warning).toBe("message_truncated,missing_charset");
    expect((long.response_metadata as { warnings: string[] }).warnings).toEqual(["message_truncated", "missing_charset"]);
    expect((long.response_metadata as { messages: string[] }).messages).toHaveLength(2);
  });
});
