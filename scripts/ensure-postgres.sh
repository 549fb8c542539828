#!/usr/bin/env bash
# Install PostgreSQL from Debian's packages when missing (used by .ci/run; the tests start their
# own throwaway server from it).
set -euo pipefail
if ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  exit 0
fi
echo "PostgreSQL is not installed; PostgreSQL tests will be skipped" >&2
