/**
 * The process's store in unit tests: startTestConsole points DATA_DIR at memory://, so each test file has a
 * store of its own. Opening one costs seconds of CPU (PGlite compiles its WebAssembly) in the process that
 * also serves the emulator, so tests start over by forgetting what they kept, not by opening another.
 */
import { getStore } from "@/lib/store";

/** Forgets every webhook the console's operator pasted: a console with none, as a new person would find it. */
export async function forgetPastedWebhooks(): Promise<void> {
  const store = await getStore();
  for (const hook of await store.webhooks.list(null)) await store.webhooks.remove(null, hook.id);
}

/** Forgets the operator's app configuration token. */
export async function forgetConfigToken(): Promise<void> {
  await (await getStore()).configTokens.delete(null);
}

/**
 * Opens the store before the test talks to the emulator. Its first open blocks this process for seconds, and
 * a keep-alive connection to the emulator (served by this same process) that times out meanwhile is reset
 * under the next request that reuses it.
 */
export async function openTestStore(): Promise<void> {
  await getStore();
}
