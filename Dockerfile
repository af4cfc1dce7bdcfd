# syntax=docker/dockerfile:1
# The console's container image: Next.js's standalone output (server.js and only the node_modules it needs),
# run as the image's unprivileged `node` user. `docker build -t switchboard .` makes it; compose.yaml runs the
# hosted shape (two instances, PostgreSQL, Redis, nginx) and docs/hosting.md says how. The build needs no
# secret: every one (SESSION_PASSWORD, EMULATOR_ADMIN_TOKEN, METRICS_TOKEN, DATABASE_URL) is read at start.
# `next build` checks only the format of what is set (lib/env.ts; SKIP_ENV_VALIDATION=1 skips even that).

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# The type check is npm test's, not the image's (it takes a minute of the build). `public` may not exist: the
# runtime stage copies it either way.
RUN NEXT_OUTPUT=standalone SWITCHBOARD_SKIP_TYPECHECK=1 npx next build && mkdir -p public

# The standalone platform emulator (scripts/emulator-server.ts, run by tsx from the build's node_modules), to
# try the hosted shape without the real platform: `docker build --target emulator`, or compose's `emulator`
# profile. Options as `npm run emulator -- --help` lists them; the admin surface needs EMULATOR_ADMIN_TOKEN.
FROM build AS emulator
ENV NODE_ENV=production
USER node
EXPOSE 4000
CMD ["node", "--import", "tsx", "scripts/emulator-server.ts", "--host", "0.0.0.0", "--port", "4000"]

FROM ${NODE_IMAGE} AS console
WORKDIR /app
# HOSTNAME is where server.js listens (Docker sets it to the container's id otherwise); HOST is what the
# console's configuration reads, and any non-loopback value makes it require AUTH_MODE and EMULATOR_ADMIN_TOKEN.
# NEXT_MANUAL_SIG_HANDLE leaves SIGTERM to the console's graceful shutdown (lib/ops/shutdown.ts): readiness
# 503, in-flight requests and refreshes finished, exit within SHUTDOWN_TIMEOUT_S.
# DATA_DIR: the embedded store (PGlite) when DATABASE_URL is unset; mount a volume there to keep it.
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    NEXT_MANUAL_SIG_HANDLE=true \
    HOSTNAME=0.0.0.0 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
COPY --from=build --chown=node:node /app/.next/standalone ./
COPY --from=build --chown=node:node /app/.next/static ./.next/static
COPY --from=build --chown=node:node /app/public ./public
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
