/**
 * The emulator's whole state, in memory: apps, installations, tokens, codes, the workspace, and the
 * switches of the admin surface. Everything a test wants to inspect is a plain Map here.
 */
import { randomUUID } from "node:crypto";
import { buildApp } from "./apps/registry";
import { verifyRequestUrl } from "./events/url-verification";
import type { EmulatorState, FaultSettings, ResolvedOptions } from "./types";
import { createWorkspace, type Workspace } from "./workspace/workspace";

export const NO_FAULTS: FaultSettings = { latencyMs: 0, errorRate: 0, dropRate: 0, methods: [] };

/** What a reset may change about the workspaces: their size, how many, and the seed of their members. */
export interface WorkspaceShape {
  users: number;
  seed: string;
  workspaces: number;
  seedContent: boolean;
}

/** The workspaces of a shape: the first from the seed (as with one workspace), each other from the seed and its number. */
function createWorkspaces(shape: WorkspaceShape): Workspace[] {
  return Array.from({ length: Math.max(1, shape.workspaces) }, (_, i) =>
    i === 0
      ? createWorkspace({ seed: shape.seed, users: shape.users, content: shape.seedContent })
      : createWorkspace({ seed: `${shape.seed}#${i + 1}`, users: shape.users, name: `Emulated Workspace ${i + 1}`, content: shape.seedContent }),
  );
}

/** The workspace of a team id; the first when the id is unknown (a state from before a reset). */
export function workspaceOf(state: EmulatorState, teamId: string | undefined): Workspace {
  return (teamId !== undefined ? state.workspaces.get(teamId) : undefined) ?? state.workspace;
}

export function createState(options: ResolvedOptions, shape: WorkspaceShape = options): EmulatorState {
  // App credentials always follow the configured seed, so the console keeps matching them after a reset.
  const apps = options.apps.map((manifest) => buildApp(manifest, options.seed));
  // The platform verifies a request URL when it is set: the configured apps' URLs are set now.
  for (const app of apps) void verifyRequestUrl(app, options);
  const workspaces = createWorkspaces(shape);
  return {
    instanceId: randomUUID(),
    apps: new Map(apps.map((app) => [app.id, app])),
    installations: new Map(),
    tokens: new Map(),
    configTokens: new Map(),
    appTokens: new Map(),
    codes: new Map(),
    signIns: { codes: new Map(), tokens: new Map() },
    workspace: workspaces[0]!,
    workspaces: new Map(workspaces.map((ws) => [ws.team.id, ws])),
    eventLogs: new Map(),
    scheduledMessages: new Map(),
    bookmarks: new Map(),
    rateLimitsEnabled: options.rateLimits,
    nonMarketplaceLimits: options.nonMarketplaceRateLimits,
    rateWindows: new Map(),
    faults: { ...NO_FAULTS },
  };
}

/**
 * Puts a state back to how it started (in place, so that everyone holding it sees the reset):
 * the configured apps, no installations, tokens (app configuration tokens and sign-ins included) or codes, a fresh
 * workspace, no faults.
 */
export function resetState(state: EmulatorState, options: ResolvedOptions, shape: WorkspaceShape = options): void {
  const fresh = createState(options, shape);
  state.instanceId = fresh.instanceId;
  state.apps = fresh.apps;
  state.installations = fresh.installations;
  state.tokens = fresh.tokens;
  state.configTokens = fresh.configTokens;
  state.appTokens = fresh.appTokens;
  state.codes = fresh.codes;
  state.signIns = fresh.signIns;
  state.workspace = fresh.workspace;
  state.workspaces = fresh.workspaces;
  state.eventLogs = fresh.eventLogs;
  state.scheduledMessages = fresh.scheduledMessages;
  state.bookmarks = fresh.bookmarks;
  state.rateLimitsEnabled = fresh.rateLimitsEnabled;
  state.nonMarketplaceLimits = fresh.nonMarketplaceLimits;
  state.rateWindows = fresh.rateWindows;
  state.faults = fresh.faults;
}
