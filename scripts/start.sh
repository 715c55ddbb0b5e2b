#!/usr/bin/env bash
# From nothing to a running server with `opentabs` on PATH:
#   1. installs what the product needs (scripts/setup.sh --product: compiler, CMake, the C++
#      libraries; no Chromium, no test packages), sudo when not root;
#   2. builds only the product, Release, without tests, into build-release/;
#   3. installs it, stripped, into a prefix (default ~/.local): <prefix>/bin/opentabs and
#      <prefix>/share/opentabs/extension, and says how to put <prefix>/bin on PATH if it is not;
#   4. starts the server in the foreground on 127.0.0.1:9515 (PORT or --port to change).
# Usage: scripts/start.sh [--prefix DIR] [--no-start] [--quiet] [arguments for `opentabs start`...]
# --quiet (-q): the setup and build output goes to build-release/start.log instead of the
# terminal (only the [start] lines are shown; the log's tail is printed if a step fails).
# Safe to run again: packages are installed only when missing, the build is incremental.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf '[start] %s\n' "$*" >&2; }

prefix="$HOME/.local"
start=true
quiet=false
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { log "--prefix needs a directory"; exit 2; }; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --no-start) start=false; shift ;;
    --quiet|-q) quiet=true; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"

# Runs a step, its output to the terminal or (--quiet) to the log, whose tail is shown when
# the step fails.
mkdir -p "$root/build-release"
step_log="$root/build-release/start.log"
$quiet && : > "$step_log"
run_step() {
  if ! $quiet; then
    "$@"
    return
  fi
  if ! "$@" >>"$step_log" 2>&1; then
    log "failed: $*; the last lines of $step_log:"
    tail -n 40 "$step_log" >&2
    exit 1
  fi
}

log "checking the packages the product needs"
run_step "$root/scripts/setup.sh" --product

log "building opentabs (Release, no tests) into build-release/"
configure() { cmake -S "$root" -B "$root/build-release" -DCMAKE_BUILD_TYPE=Release -DOPENTABS_BUILD_TESTS=OFF >/dev/null; }
run_step configure
run_step cmake --build "$root/build-release" -j"$(nproc)" --target opentabs
log "installing into $prefix"
cmake --install "$root/build-release" --prefix "$prefix" --strip >/dev/null
log "installed $prefix/bin/opentabs and $prefix/share/opentabs/extension"

on_path="$(command -v opentabs || true)"
if [ "$on_path" != "$prefix/bin/opentabs" ]; then
  if [ -n "$on_path" ]; then
    log "note: \`opentabs\` on your PATH is $on_path, not the one just installed"
  fi
  log "to use \`opentabs\` from any shell (and from MCP clients that run it), add $prefix/bin to PATH:"
  log "  echo 'export PATH=\"$prefix/bin:\$PATH\"' >> ~/.bashrc && export PATH=\"$prefix/bin:\$PATH\""
fi

if $start; then
  exec "$prefix/bin/opentabs" start "${args[@]}"
fi
