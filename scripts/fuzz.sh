#!/usr/bin/env bash
# Builds the libFuzzer targets of test/fuzz/ with clang (ASan + UBSan + libFuzzer) into
# build-fuzz/ and runs each for a bounded time, starting from the committed seed corpora
# in test/fuzz/corpus/<target>/.  Idempotent: installs clang and its fuzzer runtime only
# when missing (sudo when not root).  New corpus entries go to build-fuzz/corpus/<target>/
# (not committed); a crash leaves its input in build-fuzz/artifacts/<target>/ and makes the
# script fail.  Inputs that found a bug are kept in test/fuzz/regressions/<target>/ and
# replayed on every run.  Every target runs with a per-input time limit (libFuzzer -timeout):
# an input slower than that is a failure like a crash, so a schema that compiles or matches
# slowly (the regex denial of service of issue 13) is caught, not just one that crashes.
# Usage: scripts/fuzz.sh [seconds per target, default 30] [target ...]
#   targets: http_request ws_decoder json mcp_message schema_validator schema_compile config tools_json
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${1:-30}"
shift || true
all_targets=(http_request ws_decoder json mcp_message schema_validator schema_compile config tools_json)
# Seconds one input may take (under ASan + UBSan).  The schema targets compile regexes and
# validate long strings: linear-time, milliseconds per input, so 5 s is a wide margin that
# still flags a super-linear case; the parsers get 10 s.
input_timeout() {
  case "$1" in
    schema_validator|schema_compile) echo 5 ;;
    *) echo 10 ;;
  esac
}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

log() { printf '[fuzz] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# The fuzz layers include no Asio, so Debian 12's clang 14 suffices; its libFuzzer runtime
# comes with libclang-rt-14-dev (older package names bundle it with clang-14 itself).
pick_clang() {
  for v in 16 15 14; do
    if command -v "clang++-$v" >/dev/null && ls /usr/lib/llvm-$v/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
      echo "clang++-$v"; return 0
    fi
  done
  return 1
}
if ! cxx=$(pick_clang); then
  log "installing clang-14 and its libFuzzer runtime"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
  pkgs=(clang-14)
  apt-cache show libclang-rt-14-dev >/dev/null 2>&1 && pkgs+=(libclang-rt-14-dev)
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${pkgs[@]}" >/dev/null
  cxx=$(pick_clang) || { log "no clang with a libFuzzer runtime found"; exit 1; }
fi
# The C++ libraries the server code needs (also installed by scripts/setup.sh).
"$root/scripts/setup.sh" --no-build

log "building with $cxx into build-fuzz/"
cmake -S test/fuzz -B build-fuzz -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j"$(nproc)" >/dev/null

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:suppressions=$root/test/fuzz/ubsan.supp}"
failed=()
for t in "${targets[@]}"; do
  work="build-fuzz/corpus/$t"; artifacts="build-fuzz/artifacts/$t"
  mkdir -p "$work" "$artifacts"
  timeout_s=$(input_timeout "$t")
  log "$t: ${seconds}s, at most ${timeout_s}s per input"
  # Inputs that once failed (test/fuzz/regressions/<target>/) run first, with the seeds.
  extra=(); [ -d "test/fuzz/regressions/$t" ] && extra=("test/fuzz/regressions/$t")
  if build-fuzz/fuzz_$t -max_total_time="$seconds" -timeout="$timeout_s" -rss_limit_mb=2048 -max_len=65536 \
       -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" "test/fuzz/corpus/$t" "${extra[@]}" \
       > "build-fuzz/$t.log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build-fuzz/$t.log")
    cov=$(grep -o 'cov: [0-9]*' "build-fuzz/$t.log" | tail -1)
    printf '%-18s ok     %10s runs  %s  corpus %s files\n' "$t" "$runs" "$cov" "$(ls "$work" | wc -l)"
  else
    printf '%-18s FAILED (see build-fuzz/%s.log; input in %s/)\n' "$t" "$t" "$artifacts"
    failed+=("$t")
  fi
done
[ ${#failed[@]} -eq 0 ] || { log "crashes in: ${failed[*]}"; exit 1; }
