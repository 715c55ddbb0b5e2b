#!/usr/bin/env bash
# Prints the figures README.md and bench/README.md quote that change with the code, measured
# from a build instead of typed by hand:
#   - the size of the binary (as built, and stripped as the release ships it);
#   - the size of every file in dist/ when scripts/release.sh has made one;
#   - the tool catalog of a server with no plugin: how many tools GET /tools lists and how
#     many of them are browser tools (the server is started on a free port with an empty,
#     temporary config folder and stopped again);
#   - how many test cases each doctest unit suite holds, and how many Node test files each
#     test/ folder holds.
# Usage: scripts/readme_figures.sh [BUILD_DIR]   (default: build/, else build-release/)
# Needs: the built `opentabs` (and the test_* suites for their counts), curl, jq.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-}"
if [ -z "$build" ]; then
  if [ -x "$root/build/opentabs" ]; then build="$root/build"; else build="$root/build-release"; fi
fi
bin="$build/opentabs"
[ -x "$bin" ] || { echo "no opentabs binary in $build (build it first)" >&2; exit 1; }

bytes() { stat -c %s "$1"; }
tmp="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "## Binary ($bin, $("$bin" --version 2>/dev/null | head -1))"
echo "as built: $(bytes "$bin") bytes"
if strip -o "$tmp/opentabs.stripped" "$bin" 2>/dev/null; then
  echo "stripped: $(bytes "$tmp/opentabs.stripped") bytes"
fi
if file "$bin" 2>/dev/null | grep -q 'statically linked'; then echo "linked: static"; else echo "linked: dynamic"; fi

if [ -d "$root/dist" ]; then
  echo
  echo "## dist/ (scripts/release.sh)"
  for f in "$root"/dist/*; do printf '%s: %s bytes\n' "$(basename "$f")" "$(bytes "$f")"; done
fi

echo
echo "## Tool catalog of a server with no plugin"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
mkdir -p "$tmp/config"
OPENTABS_CONFIG_DIR="$tmp/config" HOME="$tmp" OPENTABS_SKIP_NPM_DISCOVERY=1 \
  "$bin" start --port "$port" >"$tmp/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && [ -s "$tmp/config/extension/auth.json" ] && break
  sleep 0.1
done
secret="$(jq -r .secret "$tmp/config/extension/auth.json")"
curl -fs -H "Authorization: Bearer $secret" "http://127.0.0.1:$port/tools" >"$tmp/tools.json"
echo "tools listed by GET /tools: $(jq length "$tmp/tools.json")"
echo "browser tools (plugin \"browser\"): $(jq '[.[] | select(.plugin == "browser")] | length' "$tmp/tools.json")"
echo "other built-in tools: $(jq '[.[] | select(.plugin != "browser")] | length' "$tmp/tools.json")"
echo "bytes of that JSON array: $(bytes "$tmp/tools.json")"

echo
echo "## Tests"
for suite in "$build"/test_*; do
  [ -x "$suite" ] || continue
  n="$("$suite" --count 2>/dev/null | sed -n 's/.*passing the current filters: \([0-9]*\).*/\1/p')"
  echo "unit.$(basename "$suite" | sed 's/^test_//'): ${n:-?} test cases"
done
for dir in "$root"/test/*/; do
  n="$(find "$dir" -maxdepth 1 -name '*.test.mjs' | wc -l)"
  [ "$n" -gt 0 ] && echo "test/$(basename "$dir")/: $n Node test files"
done
exit 0
