import { runAppConfigContract } from "./support/contract";

// The shared contract through backend (b): the App Manifest API with a pasted configuration token, the emulator as the embedded upstream.
runAppConfigContract({ backend: "manifest-api", upstream: "emulator" });
