#!/usr/bin/env bash
# npm test: lint and formatting (ESLint with the import boundaries, Prettier, no import cycles, knip: nothing unused), the unit tests (Vitest: the fast project, then the slow one), the browser tests (Playwright in Debian's Chromium), then every benchmark
# suite once in quick mode (figures printed, not judged), so a change that breaks a benchmark fails the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Chromium is missing: installing Debian's chromium package..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The browser tests need Chromium at $CHROMIUM, and it is missing." >&2
    echo "Install it as root with:  apt-get update && apt-get install -y chromium" >&2
    echo "(or set CHROMIUM_PATH to another Chromium binary). Playwright's own browser download cannot work here." >&2
    exit 1
  fi
fi

# The refresh-coordination tests start their own redis-server (nothing saved to disk) on a free port.
REDIS_SERVER="${REDIS_SERVER_PATH:-redis-server}"
if ! command -v "$REDIS_SERVER" >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "redis-server is missing: installing Debian's redis-server package..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  else
    echo "The refresh-coordination tests need redis-server, and it is missing." >&2
    echo "Install it as root with:  apt-get update && apt-get install -y redis-server" >&2
    echo "(or set REDIS_SERVER_PATH to another redis-server binary)." >&2
    exit 1
  fi
fi

# The store's contract suite also runs against a real PostgreSQL: a temporary cluster (initdb, as the postgres user
# when run as root) in a temporary directory on a free port, removed afterwards (tests/unit/support/postgres.ts).
if [ -z "${POSTGRES_BIN:-}" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "PostgreSQL is missing: installing Debian's postgresql package..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  else
    echo "The store's tests need PostgreSQL's server binaries (initdb, pg_ctl), and they are missing." >&2
    echo "Install them as root with:  apt-get update && apt-get install -y postgresql" >&2
    echo "(or set POSTGRES_BIN to the folder that holds initdb and pg_ctl)." >&2
    exit 1
  fi
fi

export NEXT_TELEMETRY_DISABLED=1
# Lint, import cycles and formatting first: they take seconds and say the most about a change that fails them.
npm run -s lint
npm run -s format:check
# The fast unit tests first (about a minute), then the slow ones: PostgreSQL, redis, servers, child processes.
npm run -s test:unit
npm run -s test:slow
npx playwright test
# Reuses the production build the browser tests made.
BENCH_DIST_DIR=".next-e2e-${E2E_PORT:-3100}" npx tsx bench/run.ts --quick
