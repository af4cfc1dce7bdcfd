#!/usr/bin/env bash
# npm start: build and serve the console (production mode) with the embedded emulator unless
# PLATFORM_BASE_URL says otherwise, on HOST (default 127.0.0.1: this machine only) and PORT (default 3000).
# Production refuses to start without SESSION_PASSWORD, and an exposed HOST without EMULATOR_ADMIN_TOKEN
# (or without AUTH_MODE, which only a person can choose: oidc to sign people in, or none),
# so on a machine that has none this makes the two secrets, keeps them in .env.local (git-ignored, read by Next.js,
# to be copied to every instance behind one load balancer) and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

# Makes a secret into .env.local unless the environment or .env.local already has one.
ensure_secret() {
  local name=$1 what=$2
  if [ -z "${!name:-}" ] && ! grep -qs "^${name}=" .env.local; then
    local value
    value=$(node -e "process.stdout.write(require('node:crypto').randomBytes(32).toString('base64url'))")
    (umask 077 && printf '%s=%s\n' "$name" "$value" >> .env.local)
    echo "[switchboard] ${name} was not set: generated one into .env.local (${what})."
  fi
}
ensure_secret SESSION_PASSWORD "keep it private; every instance behind one load balancer needs the same one"
ensure_secret EMULATOR_ADMIN_TOKEN "the emulator's admin credential; every instance needs the same one"

HOST=${HOST:-127.0.0.1}
PORT=${PORT:-3000}
# NEXT_MANUAL_SIG_HANDLE: SIGTERM and Ctrl-C end the console gracefully (lib/ops/shutdown.ts) rather than at once.
export HOST PORT NEXT_TELEMETRY_DISABLED=1 NEXT_MANUAL_SIG_HANDLE=true
# The build skips Next.js's type check (about a minute on a small machine): npm test runs it.
SWITCHBOARD_SKIP_TYPECHECK=1 npx next build
# Next.js names the address it listens on (Local, and Network even for 127.0.0.1), while the console must
# be opened at APP_ORIGIN, where its cookies and the OAuth redirect live: the server says that one itself
# (instrumentation-node.ts), and these two lines go. The filter ignores Ctrl-C (which a terminal sends to the
# whole group) and ends when the server does, so the graceful shutdown's own lines still reach the terminal.
exec npx next start -H "$HOST" -p "$PORT" > >(trap '' INT TERM; sed -u -e '/- Local: /d' -e '/- Network: /d')
