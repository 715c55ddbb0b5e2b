#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs every test: doctest unit tests and the
# Node-driven integration, MCP conformance and real-Chromium e2e suites, all through ctest
# against the real binary.  Usage: scripts/test.sh [extra ctest args]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
cd "$root/build"
ctest --output-on-failure --timeout 1500 "$@"
