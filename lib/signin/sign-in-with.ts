import "server-only";
import { getConfig } from "@/lib/config";
import { getEmbeddedEmulator } from "@/lib/embedded-emulator";

/** What the console's sign-in page says people sign in with. */
export interface SignInWith {
  /** The button's words after "Sign in with": a workspace's name, or the platform's host. */
  name: string;
  /** The workspaces whose members may sign in, when the console knows them (its embedded emulator's). */
  workspaces: string[];
  emulated: boolean;
}

/**
 * The embedded emulator's workspaces are this process's, read from its state (no request); a real platform's
 * are not known before someone signs in, so the page names the platform by the host it sends people to.
 */
export function signInWith(): SignInWith {
  const { upstream } = getConfig();
  if (upstream.kind === "platform") return { name: new URL(upstream.baseUrl).hostname, workspaces: [], emulated: false };
  const workspaces = [...getEmbeddedEmulator().state.workspaces.values()].map((ws) => ws.team.name);
  return { name: workspaces.length === 1 ? workspaces[0]! : "your emulated workspace", workspaces, emulated: true };
}
