#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and starts the opentabs server in the foreground
# on 127.0.0.1:9515 (PORT or --port to change).  Extra arguments go to `opentabs start`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
exec "$root/build/opentabs" start "$@"
