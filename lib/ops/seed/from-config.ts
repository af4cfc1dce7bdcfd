import "server-only";
import { getConfig } from "@/lib/config";
import { closeEmbeddedEmulator, getEmbeddedEmulator } from "@/lib/embedded-emulator";
import { EMULATOR_MOUNT_PATH } from "@/lib/emulator";
import { passwordsNewestFirst, sealingKeys } from "@/lib/store/sealing";
import { openStore } from "@/lib/store/store";
import { emulatorInProcess, emulatorOverHttp, type EmulatorSeeder } from "./emulator-seeder";
import { seedInstallations } from "./seed-installations";

/**
 * `npm run seed` once its flags are read: the console's store and emulator as its configuration names them
 * (DATABASE_URL or DATA_DIR; the embedded emulator on DATA_DIR/emulator, or the one at `emulatorUrl`), seeded
 * and closed, with what it made and how long it took printed.
 */
export async function seedFromConfig(settings: {
  installations: number;
  emulatorUrl?: string;
  namePrefix: string;
  first: number;
  rotatingShare: number;
  userShare: number;
  batch: number;
  /** Where progress and the outcome are told (the script prints them). */
  say: (line: string) => void;
}): Promise<void> {
  const config = getConfig();
  let emulator: EmulatorSeeder;
  let where: string;
  if (settings.emulatorUrl) {
    emulator = emulatorOverHttp(settings.emulatorUrl, config.emulator.adminTokenConfigured ? config.emulator.adminToken : undefined);
    where = `the emulator at ${settings.emulatorUrl}`;
  } else {
    if (!config.emulator.dataDir) {
      throw new Error(
        "DATA_DIR is memory://: the console's embedded emulator would forget the seed when this script ends. Give --data-dir, or --emulator-url of a running emulator.",
      );
    }
    if (config.upstream.kind !== "emulator" || config.upstream.baseUrl !== `${config.appOrigin}${EMULATOR_MOUNT_PATH}`) {
      throw new Error("The console's upstream is not its embedded emulator (PLATFORM_BASE_URL is set): give --emulator-url of the emulator it uses.");
    }
    emulator = emulatorInProcess(getEmbeddedEmulator(), config.upstream.baseUrl, config.emulator.adminToken);
    where = `the console's embedded emulator (${config.emulator.dataDir})`;
  }
  // Opened as the console opens it, but without its background re-seal: this process ends when the seed does.
  const keys = sealingKeys(config.encryptionKeys, passwordsNewestFirst(config.sessionPasswords));
  const store = await openStore(
    config.store.kind === "postgres" ? { kind: "postgres", url: config.store.url, keys } : { kind: "pglite", dataDir: config.store.dataDir, keys },
  );
  const started = performance.now();
  let lastReport = started;
  try {
    settings.say(`Seeding ${settings.installations.toLocaleString("en-US")} installations into ${where} and the store (${store.kind})…`);
    const result = await seedInstallations({
      store,
      emulator,
      installations: settings.installations,
      clientId: config.clientId,
      namePrefix: settings.namePrefix,
      first: settings.first,
      rotatingShare: settings.rotatingShare,
      userShare: settings.userShare,
      batchSize: settings.batch,
      onProgress(done, total) {
        if (performance.now() - lastReport < 5_000 && done < total) return;
        lastReport = performance.now();
        settings.say(`  ${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} (${((lastReport - started) / 1000).toFixed(1)} s)`);
      },
    });
    settings.say(
      `Seeded ${result.installations.toLocaleString("en-US")} installations in ${(result.ms / 1000).toFixed(1)} s: ` +
        `${result.rotating.toLocaleString("en-US")} with rotating tokens, ${result.withUserToken.toLocaleString("en-US")} with a user token. ` +
        `Workspaces "${settings.namePrefix} ${String(settings.first).padStart(5, "0")}" onwards.`,
    );
  } finally {
    await store.close();
    if (!settings.emulatorUrl) await closeEmbeddedEmulator();
  }
}
