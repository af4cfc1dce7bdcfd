import { runAppConfigContract } from "./support/contract";

// The shared contract through backend (a): the embedded emulator's admin surface, no configuration token.
runAppConfigContract({ backend: "emulator-admin", upstream: "emulator" });
