#!/usr/bin/env bash
# Installs everything opentabs needs to build and test, idempotently: Debian packages
# (compiler, C++ libraries, Chromium), the npm packages of the JS test side, and then
# configures and builds the C++ tree into build/.  Safe to run again: it only installs
# what is missing.  Uses sudo when not root.  Usage: scripts/setup.sh [--no-build]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

log() { printf '[setup] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

apt_packages=(g++ cmake make pkg-config git ca-certificates
  libasio-dev libwebsocketpp-dev rapidjson-dev libboost-json1.81-dev doctest-dev libre2-dev
  nodejs npm chromium jq)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# A Node.js from another source (e.g. nodesource) ships npm itself; don't fight it.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
filtered=(); for p in "${missing[@]}"; do [ -n "$p" ] && filtered+=("$p"); done
if [ ${#filtered[@]} -gt 0 ]; then
  log "installing Debian packages: ${filtered[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${filtered[@]}" >/dev/null
fi

# npm packages of the test side, reinstalled only when package-lock.json changed.
stamp=test/node_modules/.opentabs-lock-stamp
want=$(sha256sum test/package-lock.json | cut -c1-64)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  log "installing npm packages in test/"
  (cd test && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" > "$stamp"
fi

if [ "${1:-}" != "--no-build" ]; then
  log "building (build/)"
  cmake -S . -B build -DCMAKE_BUILD_TYPE="${OPENTABS_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
  cmake --build build -j"$(nproc)"
fi
