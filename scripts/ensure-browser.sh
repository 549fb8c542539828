#!/usr/bin/env bash
# Make sure a Chromium exists for the Playwright tests. Playwright's own browser download is
# blocked on these machines, so the system browser from Debian's packages is used instead.
set -euo pipefail
path=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$path" ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "no Chromium at $path and cannot install it; browser tests will use Playwright's own browser if any" >&2
