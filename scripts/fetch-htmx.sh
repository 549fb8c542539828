#!/usr/bin/env bash
# Fetch the pinned htmx from the npm registry into static/vendor and check its SRI hash.
# The copy is a local fallback for when the CDN is unreachable; it is not committed.
set -euo pipefail
out=${1:-static/vendor/htmx.min.js}
version=${HTMX_VERSION:?}
sri=${HTMX_SRI:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
( cd "$tmp" && npm pack "htmx.org@${version}" --silent >/dev/null 2>&1 )
tar -xzOf "$tmp"/htmx.org-*.tgz package/dist/htmx.min.js > "$tmp/htmx.min.js"
got="sha384-$(openssl dgst -sha384 -binary "$tmp/htmx.min.js" | openssl base64 -A)"
if [ "$got" != "$sri" ]; then
  echo "htmx ${version}: hash mismatch ($got != $sri)" >&2
  exit 1
fi
mkdir -p "$(dirname "$out")"
mv "$tmp/htmx.min.js" "$out"
echo "htmx ${version} -> $out"
