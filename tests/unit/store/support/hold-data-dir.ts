/**
 * A second process for store-pglite-data-dir.slow.test.ts: opens the embedded store on the DATA_DIR it is given
 * and says "open" (or the error it met) on stdout. Then it holds the store until killed, or with `write`
 * writes one installation again and again, saying "committed <version>" after each write returns.
 * Run as: node --conditions=react-server --import tsx hold-data-dir.ts <dir> [write]
 */
import type { StoreInstallation } from "@/lib/store";
import { sealingKeys } from "@/lib/store/sealing";
import { openStore } from "@/lib/store/store";

const [dataDir, mode] = process.argv.slice(2);
// testKeys("current") of support/contract.ts, so the test opens what this process sealed.
const keys = sealingKeys(["current-passphrase-of-at-least-thirty-two-characters"], []);

async function main() {
  const store = await openStore({ kind: "pglite", dataDir: dataDir!, keys });
  process.stdout.write("open\n");
  if (mode !== "write") {
    setInterval(() => {}, 60_000);
    return;
  }
  const record: StoreInstallation = {
    id: "T0001-written",
    appKey: "rotation",
    team: { id: "T0001", name: "Acme" },
    state: "active",
    installedAt: 1,
    updatedAt: 1,
    bot: { value: "xoxb-1-written", refreshToken: "xoxe-1-written", expiresAt: 10, scopes: ["chat:write"], issuedAt: 1 },
  };
  for (let n = 1; ; n++) {
    const written = await store.installations.put({ ...record, updatedAt: n, bot: { ...record.bot!, issuedAt: n } }, { timeline: [{ at: n, type: "tested" }] });
    process.stdout.write(`committed ${written.version}\n`);
  }
}

main().catch((error: Error) => {
  process.stdout.write(`refused: ${error.message}\n`);
  process.exit(1);
});
