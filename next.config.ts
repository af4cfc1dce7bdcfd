import type { NextConfig } from "next";
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from "next/constants";
import { checkEnvAtBuild } from "./lib/env";

const nextConfig: NextConfig = {
  // Lets several builds or dev servers share one checkout (tests, benchmarks, parallel work).
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The container image's build (Dockerfile) only: a server.js with the node_modules it needs, in
  // <distDir>/standalone. `next start`, which npm start and the tests use, warns when it serves one.
  ...(process.env.NEXT_OUTPUT === "standalone" ? { output: "standalone" } : {}),
  // The store reads its SQL migrations at run time from lib/store/migrations (lib/store/backend.ts): no import
  // names them. Turbopack's tracing finds them from that path.join today; this keeps them in the standalone
  // output whatever traces it.
  // The same for the token API's doc, which /docs/token-api reads (app/docs/token-api/page.tsx).
  outputFileTracingIncludes: { "/**": ["./lib/store/migrations/**/*"], "/docs/token-api": ["./docs/token-api.md"] },
  poweredByHeader: false,
  // npm start (scripts/start.sh) builds to serve, not to check: the type check is npm test's (tsc --noEmit).
  typescript: { ignoreBuildErrors: process.env.SWITCHBOARD_SKIP_TYPECHECK === "1" },
  reactStrictMode: true,
  // pino's transports, the emulator's crypto and the Redis client stay on Node, outside the bundle; so do
  // the store's engines: PGlite loads its WebAssembly and data files from its package folder, and pg its
  // optional native bindings.
  serverExternalPackages: ["pino", "ioredis", "@electric-sql/pglite", "pg"],
  // `next dev` logs each request's path, and an incoming webhook's path holds its secret: leave those out.
  logging: { incomingRequests: { ignore: [/\/services\//] } },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

// `next build` and `next dev` refuse a malformed environment before anything else, naming each variable
// (lib/env.ts); `next start` leaves it to the console's own check at start, which says the same and more.
export default function config(phase: string): NextConfig {
  if (phase === PHASE_PRODUCTION_BUILD || phase === PHASE_DEVELOPMENT_SERVER) checkEnvAtBuild();
  return nextConfig;
}
