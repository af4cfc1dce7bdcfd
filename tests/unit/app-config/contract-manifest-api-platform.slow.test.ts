import { runAppConfigContract } from "./support/contract";

// The shared contract through backend (b) with the emulator standing in for the real platform (PLATFORM_BASE_URL): nothing emulator-only is used.
runAppConfigContract({ backend: "manifest-api", upstream: "platform" });
