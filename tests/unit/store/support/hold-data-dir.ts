/**
 * A second process for store-pglite-data-dir.test.ts: opens the embedded store on the DATA_DIR it is given,
 * says "open" (or the error it met) on stdout, and holds it until killed.
 * Run as: node --conditions=react-server --import tsx hold-data-dir.ts <dir>
 */
import { openStore, sealingKeys } from "@/lib/store";

const dataDir = process.argv[2]!;
openStore({ kind: "pglite", dataDir, keys: sealingKeys(["a-passphrase-of-at-least-thirty-two-characters"], []) }).then(
  () => {
    process.stdout.write("open\n");
    setInterval(() => {}, 60_000);
  },
  (error: Error) => {
    process.stdout.write(`refused: ${error.message}\n`);
    process.exit(1);
  },
);
