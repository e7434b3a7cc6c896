#!/usr/bin/env bash
# Installs node_modules from package-lock.json when they are missing or older than the lock file.
# npm writes node_modules/.package-lock.json on every install, so its age tells whether they match.
set -euo pipefail
cd "$(dirname "$0")/.."

stamp=node_modules/.package-lock.json
if [[ ! -f "$stamp" || package-lock.json -nt "$stamp" ]]; then
  echo "== Installing npm dependencies (npm ci)"
  if ! npm ci --no-audit --no-fund; then
    # A known npm 11 lock-file quirk (napi-windows-process-start-time): re-pinning vite repairs it.
    echo "== npm ci failed; re-pinning vite@8.3.8 and retrying"
    npm i -D -E vite@8.3.8 --no-audit --no-fund
    npm ci --no-audit --no-fund
  fi
fi
