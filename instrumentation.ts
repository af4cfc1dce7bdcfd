/** Runs once when a server instance starts; the Node.js half lives in its own module (see there). */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") await (await import("./instrumentation-node")).replayUnsettledRefreshes();
}
