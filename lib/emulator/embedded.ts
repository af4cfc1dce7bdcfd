/**
 * The console's embedded emulator, mounted at /emulator (app/emulator/[[...path]]/route.ts): the emulator's
 * second public entry, apart from index.ts because it is server-only and reads the console's configuration,
 * which scripts and the configuration module itself (it imports index.ts) must not load.
 */
export { findEmbeddedEmulator, getEmbeddedEmulator, handleEmbeddedEmulatorRequest } from "./adapters/embedded";
