#!/usr/bin/env bash
# Installs what the build and tests need on a fresh machine. Safe to run again:
# each step is skipped when its result is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
# Lighthouse runs the full Chromium; the tests drive its headless shell.
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || need_apt+=(chromium-headless-shell)
# The engine tests (e2e/engines): Firefox ESR, WebKitGTK's WebDriver with
# its MiniBrowser, and a virtual X display for MiniBrowser.
[ -x /usr/bin/firefox-esr ] || need_apt+=(firefox-esr)
[ -x /usr/bin/WebKitWebDriver ] || need_apt+=(webkit2gtk-driver)
[ -x /usr/bin/Xvfb ] || need_apt+=(xvfb)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "setup: please install ${need_apt[*]} (for example: sudo apt-get install ${need_apt[*]})" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if [ -f package-lock.json ]; then
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
  fi
fi
go mod download
