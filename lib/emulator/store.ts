/**
 * The emulator's whole state, in memory: apps, installations, tokens, codes, the workspace, and the
 * switches of the admin surface. Everything a test wants to inspect is a plain Map here.
 */
import { buildApp } from "./apps";
import type { EmulatorState, FaultSettings, ResolvedOptions } from "./types";
import { createWorkspace } from "./workspace";

export const NO_FAULTS: FaultSettings = { latencyMs: 0, errorRate: 0, dropRate: 0, methods: [] };

/** What a reset may change about the workspace: its size and the seed of its members. */
export interface WorkspaceShape {
  users: number;
  seed: string;
}

export function createState(options: ResolvedOptions, shape: WorkspaceShape = options): EmulatorState {
  // App credentials always follow the configured seed, so the console keeps matching them after a reset.
  const apps = options.apps.map((manifest) => buildApp(manifest, options.seed));
  return {
    apps: new Map(apps.map((app) => [app.id, app])),
    installations: new Map(),
    tokens: new Map(),
    codes: new Map(),
    workspace: createWorkspace({ seed: shape.seed, users: shape.users }),
    rateLimitsEnabled: options.rateLimits,
    rateWindows: new Map(),
    faults: { ...NO_FAULTS },
  };
}

/**
 * Puts a state back to how it started (in place, so that everyone holding it sees the reset):
 * the configured apps, no installations, tokens or codes, a fresh workspace, no faults.
 */
export function resetState(state: EmulatorState, options: ResolvedOptions, shape: WorkspaceShape = options): void {
  const fresh = createState(options, shape);
  state.apps = fresh.apps;
  state.installations = fresh.installations;
  state.tokens = fresh.tokens;
  state.codes = fresh.codes;
  state.workspace = fresh.workspace;
  state.rateLimitsEnabled = fresh.rateLimitsEnabled;
  state.rateWindows = fresh.rateWindows;
  state.faults = fresh.faults;
}
