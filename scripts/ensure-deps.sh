#!/usr/bin/env bash
# Installs node_modules from package-lock.json when they are missing or older than the lock file.
# npm writes node_modules/.package-lock.json on every install, so its age tells whether they match.
set -euo pipefail
cd "$(dirname "$0")/.."

stamp=node_modules/.package-lock.json
if [[ ! -f "$stamp" || package-lock.json -nt "$stamp" ]]; then
  echo "== Installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi
