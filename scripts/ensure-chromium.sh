#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium (playwright.config.ts), never a browser that
# Playwright would download: only the npm registry and Debian's archive are reachable.
set -euo pipefail

if [[ -x /usr/bin/chromium ]]; then
  exit 0
fi
echo "== Installing Debian chromium (apt-get)"
sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y chromium
