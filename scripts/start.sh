#!/usr/bin/env bash
# npm start: build and serve the console (production mode) with the embedded emulator unless
# PLATFORM_BASE_URL says otherwise, on HOST (default 127.0.0.1: this machine only) and PORT (default 3000).
#
# It builds only when a source changed since the last build (scripts/build-current.sh), so a restart serves at
# once. `npm start -- --build` builds anyway; `npm start -- --no-build` serves the build there is, without
# looking (and refuses when there is none).
#
# Production refuses to start without SESSION_PASSWORD, and an exposed HOST without EMULATOR_ADMIN_TOKEN
# (or without AUTH_MODE, which only a person can choose: oidc to sign people in, or none),
# so on a machine that has none this makes the two secrets, keeps them in .env.local (git-ignored, read by Next.js,
# to be copied to every instance behind one load balancer) and says so.
#
# Signals: package.json runs this with `exec` and this ends by exec'ing the server, so the process npm started
# IS the server: the SIGTERM that systemd, pm2 or `kill` sends to npm, which npm passes on to its script, reaches
# the server's graceful shutdown (lib/ops/shutdown.ts), and npm exits when it has. (Through a shell that waited
# on a child, or npx, which is npm again with a shell of its own, the signal ended the shell and left the server
# serving, holding DATA_DIR.)
set -euo pipefail
cd "$(dirname "$0")/.."

build=auto
for arg in "$@"; do
  case $arg in
    --build) build=yes ;;
    --no-build) build=no ;;
    *)
      echo "[switchboard] npm start takes --build (build even when the build is current) or --no-build (serve the build there is), not: $arg" >&2
      exit 2
      ;;
  esac
done

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
# Next.js's own script under this node, never npx (see "Signals" above).
NEXT=node_modules/next/dist/bin/next
DIST=${NEXT_DIST_DIR:-.next}

if [ "$build" = auto ]; then
  if why=$(bash scripts/build-current.sh "$DIST"); then
    build=no
    echo "[switchboard] The build in $DIST is newer than every source: serving it (npm start -- --build builds anyway)."
  else
    build=yes
    echo "[switchboard] Building ($why)."
  fi
fi
if [ "$build" = no ] && [ ! -f "$DIST/BUILD_ID" ]; then
  echo "[switchboard] There is no build in $DIST to serve: run npm start without --no-build." >&2
  exit 1
fi
if [ "$build" = yes ]; then
  # The build skips Next.js's type check (about a minute on a small machine): npm test runs it. In the background
  # so that a signal to this script (npm passes SIGTERM on) stops the build as well, rather than leaving it running.
  # BUILD_COMPLETE marks a build that finished (scripts/build-current.sh): gone while one runs, written once it succeeded.
  rm -f "$DIST/BUILD_COMPLETE"
  SWITCHBOARD_SKIP_TYPECHECK=1 node "$NEXT" build &
  builder=$!
  trap 'kill -TERM "$builder" 2>/dev/null; wait "$builder"; exit 143' TERM INT
  wait "$builder"
  trap - TERM INT
  date -u +%Y-%m-%dT%H:%M:%SZ > "$DIST/BUILD_COMPLETE"
fi

# Next.js names the address it listens on (Local, and Network even for 127.0.0.1), while the console must
# be opened at APP_ORIGIN, where its cookies and the OAuth redirect live: the server says that one itself
# (instrumentation-node.ts), and these two lines go. The filter ignores Ctrl-C (which a terminal sends to the
# whole group) and ends when the server does, so the graceful shutdown's own lines still reach the terminal.
exec node "$NEXT" start -H "$HOST" -p "$PORT" > >(trap '' INT TERM; sed -u -e '/- Local: /d' -e '/- Network: /d')
