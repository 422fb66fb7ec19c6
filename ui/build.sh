#!/usr/bin/env bash
# Builds and tests the web UI with this machine's own npm (called by the Maven build; usable by hand).
#   build.sh build OUT   npm ci when the lockfile changed, check the API types, typecheck, build into OUT
#   build.sh test        the Vitest suite
# Without npm the build goes on without the UI (the server's / then says how to get it) — unless
# POLYRAG_TEST_REQUIRE_SERVICES=true (CI), where a missing npm is an error.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v npm >/dev/null 2>&1; then
  if [ "${POLYRAG_TEST_REQUIRE_SERVICES:-}" = "true" ]; then
    echo "ui: npm is not installed but POLYRAG_TEST_REQUIRE_SERVICES=true: install Node.js 20.19+ or 22.12+ and npm" >&2
    exit 1
  fi
  echo "ui: npm not found: building without the web UI (install Node.js 20.19+ or 22.12+ and npm, then build again)" >&2
  exit 0
fi
# Vite needs Node 20.19+ or 22.12+: an older one (a distribution's own package, Debian's 18) failed the whole build,
# where the UI is meant to be skipped.
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number);
    process.exit((a === 20 && b >= 19) || (a === 22 && b >= 12) || a >= 23 ? 0 : 1)' 2>/dev/null; then
  have="$(node --version 2>/dev/null || echo none)"
  if [ "${POLYRAG_TEST_REQUIRE_SERVICES:-}" = "true" ]; then
    echo "ui: Node.js $have is too old for the web UI's build but POLYRAG_TEST_REQUIRE_SERVICES=true: install Node.js 20.19+ or 22.12+" >&2
    exit 1
  fi
  echo "ui: Node.js $have is too old for the web UI's build: building without the web UI (install Node.js 20.19+ or 22.12+, then build again)" >&2
  exit 0
fi
# npm ci only when node_modules is missing or older than the lockfile: it deletes and reinstalls everything.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
case "${1:-}" in
  build)
    out="${2:?build.sh build OUT}"
    node scripts/check-api-types.mjs
    npx --no-install tsc --noEmit -p .
    npx --no-install vite build --outDir "$out" --emptyOutDir --logLevel warn
    ;;
  test)
    npx --no-install vitest run
    ;;
  *)
    echo "usage: build.sh build OUT | test" >&2
    exit 2
    ;;
esac
