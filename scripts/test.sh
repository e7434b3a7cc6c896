#!/usr/bin/env bash
# The one check, run the same way locally and in CI (.ci/run): format, types, lint, imports, unit,
# end-to-end.
# Stops at the first stage that fails.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-deps.sh
bash scripts/ensure-chromium.sh

stage() {
  echo
  echo "==== $1"
  shift
  if ! "$@"; then
    echo
    echo "==== FAILED: $*" >&2
    exit 1
  fi
}

stage "Format (prettier --check)" npx prettier --check .
stage "Types: app (tsc -p tsconfig.json)" npx tsc --noEmit -p tsconfig.json
stage "Types: node (tsc -p tsconfig.node.json)" npx tsc --noEmit -p tsconfig.node.json
stage "Lint (eslint)" npx eslint .
stage "Imports (npm run deps: dependency-cruiser)" npm run --silent deps
stage "Unit tests (vitest run)" npx vitest run
stage "End-to-end tests (playwright test)" npx playwright test

echo
echo "==== All checks passed"
