#!/usr/bin/env bash
# Whether the console's build in DIST_DIR (default .next) is current: it exits 0 when the build finished (npm
# start writes BUILD_COMPLETE once next build exits 0) after every input of the build changed, and 1 naming the
# first newer one (or the missing or unfinished build) otherwise. Not BUILD_ID: next build writes it part-way,
# so a build that failed or was stopped leaves one newer than every source.
# Run from the checkout's root. Folders count too: a folder's time changes when a file in it is added, removed
# or renamed, which a file's own time does not show. Any change of a source since the build (an edit, a
# checkout, a pull, npm install) is newer than it; the environment is read at start, not built in.
set -euo pipefail
dist=${1:-${NEXT_DIST_DIR:-.next}}
if [ ! -f "$dist/BUILD_ID" ]; then
  echo "there is no build in $dist"
  exit 1
fi
if [ ! -f "$dist/BUILD_COMPLETE" ]; then
  echo "the build in $dist did not finish"
  exit 1
fi
inputs=()
for input in app components lib public proxy.ts instrumentation.ts instrumentation-node.ts next.config.ts package.json package-lock.json tsconfig.json postcss.config.mjs; do
  [ -e "$input" ] && inputs+=("$input")
done
newer=$(find "${inputs[@]}" -newer "$dist/BUILD_COMPLETE" -print -quit)
if [ -n "$newer" ]; then
  echo "$newer changed after the build in $dist"
  exit 1
fi
