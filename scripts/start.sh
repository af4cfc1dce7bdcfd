#!/usr/bin/env bash
# npm start: build and serve the console (production mode) with the embedded emulator unless
# PLATFORM_BASE_URL says otherwise. Production refuses to start without SESSION_PASSWORD, so on a machine
# that has none this makes one, keeps it in .env.local (git-ignored, read by Next.js) and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${SESSION_PASSWORD:-}" ] && ! grep -qs '^SESSION_PASSWORD=' .env.local; then
  password=$(node -e "process.stdout.write(require('node:crypto').randomBytes(32).toString('base64url'))")
  umask 077
  printf 'SESSION_PASSWORD=%s\n' "$password" >> .env.local
  echo "[switchboard] SESSION_PASSWORD was not set: generated one into .env.local (keep it private; every server"
  echo "[switchboard] instance behind one load balancer needs the same one)."
fi

export NEXT_TELEMETRY_DISABLED=1
npx next build
exec npx next start -p "${PORT:-3000}"
