#!/usr/bin/env bash
# From a checkout to a running server with `opentabs` on PATH, for developers (users install
# the prebuilt release: README, "Install"):
#   1. installs what the product needs (scripts/setup.sh --product: compiler, CMake, the C++
#      libraries; no Chromium, no test packages), sudo when not root;
#   2. builds only the product, Release, without tests, into build-release/;
#   3. installs it, stripped, into a prefix (default ~/.local): <prefix>/bin/opentabs and
#      <prefix>/share/opentabs/extension;
#   4. starts the server in the background on 127.0.0.1:9515 (--port to change) and ends with
#      a summary: where it is, how to reach it, how other commands reach another port.
# Usage: scripts/start.sh [--prefix DIR] [--no-start] [--foreground] [--verbose] [start options]
# The package and compiler output goes to build-release/start.log (its tail is printed if a
# step fails); --verbose shows it instead.  --foreground runs the server in this terminal
# (after the summary) instead of in the background.
# Safe to run again: packages are installed only when missing, the build is incremental.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf '[start] %s\n' "$*" >&2; }

prefix="$HOME/.local"
start=true
foreground=false
quiet=true
port="${OPENTABS_PORT:-${PORT:-9515}}"
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { log "--prefix needs a directory"; exit 2; }; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --no-start) start=false; shift ;;
    --foreground) foreground=true; shift ;;
    --quiet|-q) quiet=true; shift ;;
    --verbose|-v) quiet=false; shift ;;
    --port) [ $# -ge 2 ] || { log "--port needs a number"; exit 2; }; port="$2"; args+=("$1" "$2"); shift 2 ;;
    --port=*) port="${1#--port=}"; args+=("$1"); shift ;;
    *) args+=("$1"); shift ;;
  esac
done
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"

# Runs a step, its output to the terminal or (--quiet) to the log, whose tail is shown when
# the step fails.
mkdir -p "$root/build-release"
step_log="$root/build-release/start.log"
: > "$step_log"
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

if $start && ! $foreground; then
  log "starting the server"
  "$prefix/bin/opentabs" start --background "${args[@]}"
fi

# The summary comes last, so it is what a person reads when the script ends.
version="$("$prefix/bin/opentabs" --version)"
log "done: opentabs $version is $prefix/bin/opentabs"
if $start; then
  log "  serving http://127.0.0.1:$port/mcp (MCP clients: \`opentabs start --stdio\`; configuration snippets: \`opentabs start --show-config\`)"
fi
on_path="$(command -v opentabs || true)"
if [ "$on_path" != "$prefix/bin/opentabs" ]; then
  if [ -n "$on_path" ]; then
    log "  note: \`opentabs\` on your PATH is $on_path, not the one just installed"
  fi
  log "  to use \`opentabs\` from any shell (and from MCP clients that run it), add $prefix/bin to PATH:"
  log "    echo 'export PATH=\"$prefix/bin:\$PATH\"' >> ~/.bashrc && export PATH=\"$prefix/bin:\$PATH\""
fi
if [ "$port" != 9515 ]; then
  log "  port $port is not the default: give other commands --port $port or set OPENTABS_PORT=$port"
  log "    (e.g. \`opentabs status --port $port\`; MCP clients: \`opentabs start --stdio --port $port\`)"
fi
$quiet && log "  build output: $step_log"

if $start && $foreground; then
  exec "$prefix/bin/opentabs" start "${args[@]}"
fi
