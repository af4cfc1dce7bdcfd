// The default apps' constants under their former path, for lib/session/runtime.ts until it imports them
// from the public entry (@/lib/emulator) like the rest of the console (issue 17).
export * from "./apps/default-apps";
