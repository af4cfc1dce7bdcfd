import "server-only";
import { AppError } from "@/lib/http/app-error";
import { askEmulatorAdmin, callEmulatorAdmin, parseAnswer, refusalError, type AdminTarget } from "./transport";
import {
  AdminStateWire,
  AppsAnswerWire,
  ClockAnswerWire,
  ConfigTokensAnswerWire,
  EventsEnableAnswerWire,
  ManifestRefusalWire,
  MentionAnswerWire,
  MethodsAnswerWire,
  VerifyAnswerWire,
  type AdminAppWire,
  type EmulatorMethodWire,
  type MentionResult,
  type RequestUrlVerificationWire,
} from "./universal/schemas";

/**
 * The console's one client of the emulator's admin surface: one function per operation the console uses
 * (the event and webhook pages, app settings, the platform clock), each answer parsed with its schema
 * (universal/schemas.ts). A refusal is relayed with the emulator's own code, unless the operation says
 * otherwise; a malformed answer is emulator_answer_malformed.
 */

/** GET /admin/state: apps, installations, tokens (masked) and one workspace's channels with messages (default the first). */
export function readEmulatorState(target: AdminTarget, teamId?: string): Promise<AdminStateWire> {
  return callEmulatorAdmin(target, teamId ? `state?team_id=${encodeURIComponent(teamId)}` : "state", AdminStateWire);
}

/** GET /admin/methods: the Web API methods the emulator implements, as it describes them. */
export async function readEmulatorMethods(target: AdminTarget): Promise<EmulatorMethodWire[]> {
  return (await callEmulatorAdmin(target, "methods", MethodsAnswerWire)).methods;
}

/** GET /admin/apps: every app, with its credentials in clear. */
export async function listEmulatorApps(target: AdminTarget): Promise<AdminAppWire[]> {
  return (await callEmulatorAdmin(target, "apps", AppsAnswerWire)).apps;
}

/**
 * POST /admin/apps: replaces an app's whole manifest. null when the emulator saved it; when it refused it
 * (invalid_manifest: nothing changed), the problems it found; any other refusal is relayed.
 */
export async function replaceEmulatorAppManifest(
  target: AdminTarget,
  appId: string,
  manifest: Record<string, unknown>,
): Promise<Array<{ message: string; pointer: string }> | null> {
  const answer = await askEmulatorAdmin(target, "apps", { app_id: appId, manifest });
  if (answer.ok) return null;
  if (answer.code !== "invalid_manifest") throw refusalError(answer);
  return parseAnswer(answer, ManifestRefusalWire).errors;
}

/**
 * POST /admin/apps/{app_id}/verify: "Retry" on the app's event subscription settings, a fresh
 * url_verification challenge; its outcome, whichever it is (null: the app has no request URL).
 */
export async function verifyEmulatorRequestUrl(target: AdminTarget, appId: string): Promise<RequestUrlVerificationWire> {
  return (await callEmulatorAdmin(target, `apps/${encodeURIComponent(appId)}/verify`, VerifyAnswerWire, {})).request_url_verification;
}

/**
 * POST /admin/apps/{app_id}/events/enable: "Enable" on the app's event subscription settings after the
 * platform disabled them (its deliveries mostly failed); whether they were disabled (404 app_not_found relayed).
 */
export async function enableEmulatorEvents(target: AdminTarget, appId: string): Promise<boolean> {
  return (await callEmulatorAdmin(target, `apps/${encodeURIComponent(appId)}/events/enable`, EventsEnableAnswerWire, {})).was_disabled;
}

/**
 * POST /admin/mention: a member mentions the bot user of the app's installation in the workspace team_id;
 * the emulator posts the message and delivers app_mention to the app's request URL (relayed 409
 * request_url_not_verified when that URL is not verified).
 */
export function mentionEmulatorApp(target: AdminTarget, mention: { app_id: string; team_id: string; text?: string }): Promise<MentionResult> {
  return callEmulatorAdmin(target, "mention", MentionAnswerWire, mention);
}

/**
 * POST /admin/clock: moves the emulator's clock forward by this many seconds; its time after the move
 * (epoch ms). A move it refuses is invalid_clock_move (its 400) or emulator_unreachable, with its reason.
 */
export async function advanceEmulatorClock(target: AdminTarget, advanceS: number): Promise<number> {
  const answer = await askEmulatorAdmin(target, "clock", { advance_s: advanceS });
  if (!answer.ok) {
    throw new AppError(answer.status === 400 ? "invalid_clock_move" : "emulator_unreachable", {
      message: `The emulator did not move its clock (${answer.detail ?? (answer.code.startsWith("http_") ? `HTTP ${answer.status}` : answer.code)}).`,
    });
  }
  return parseAnswer(answer, ClockAnswerWire).now_ms;
}

/**
 * POST /admin/config-tokens: the emulator's stand-in for "Generate Token" on the platform's Your Apps page,
 * a configuration token pair for the first workspace's primary owner. Refused: emulator_error.
 */
export async function issueEmulatorConfigTokens(target: AdminTarget): Promise<ConfigTokensAnswerWire> {
  const answer = await askEmulatorAdmin(target, "config-tokens", {});
  if (!answer.ok) throw new AppError("emulator_error", { message: `The emulator did not issue a configuration token (${answer.code}).` });
  return parseAnswer(answer, ConfigTokensAnswerWire);
}
