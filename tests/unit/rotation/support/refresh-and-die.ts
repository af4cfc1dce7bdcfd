/**
 * A console process for kill-mid-refresh.slow.test.ts: with the test's environment (its DATA_DIR, its emulator as
 * upstream), it refreshes one installation's bot token as POST /api/tokens/refresh would, saying "refreshing"
 * first. The test kills it (SIGKILL) while the platform's answer is delayed.
 * Run as: node --conditions=react-server --import tsx refresh-and-die.ts <installation id>
 */
import { OPERATOR } from "@/lib/viewer";
import { refreshSessionToken } from "@/lib/installations/actions/refresh-token";

async function main() {
  process.stdout.write("refreshing\n");
  await refreshSessionToken({ viewer: OPERATOR, installationId: process.argv[2]!, kind: "bot", by: "a process killed mid-refresh" });
  process.stdout.write("refreshed\n");
}

main().catch((error: Error) => {
  process.stdout.write(`failed: ${error.message}\n`);
  process.exit(1);
});
