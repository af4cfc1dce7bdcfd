/**
 * Runs once when a server instance starts. A bad environment stops the process here, with the
 * configuration's own message: Next.js would otherwise keep serving and answer 500 to every request.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { ConfigError, getConfig } = await import("@/lib/config");
  try {
    getConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`\n${error.message}\n`);
    process.exit(1);
  }
}
