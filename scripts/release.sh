#!/usr/bin/env bash
# Builds every release artifact from a clean checkout into dist/ (one entry point):
#   opentabs-<v>-linux-x64.tar.gz, opentabs-<v>-linux-arm64.tar.gz   static binaries (no shared
#       library at all) + the extension: <top>/bin/opentabs, <top>/share/opentabs/extension
#   opentabs_<v>_amd64.deb, opentabs_<v>_arm64.deb                     the same binaries for dpkg
#   opentabs-<v>-windows-x64.zip                                        mingw-w64, linked -static
#   opentabs-<v>-macos-arm64.tar.gz or opentabs-<v>-macos-x64.tar.gz   only when run on a Mac
#   opentabs-cpp-opentabs-<v>.tgz + opentabs-cpp-opentabs-<platform>-<v>.tgz   npm packages
#   opentabs-<v>.mcpb                                                   MCP bundle (Claude Desktop)
#   opentabs-claude-code-plugin-<v>.tar.gz                              Claude Code marketplace
#   server.json                                                         MCP registry entry
#   install.sh                                                          the install script
#   SHA256SUMS                                                          sha256sum of all of the above
# Usage: scripts/release.sh [--targets "linux-x64 linux-arm64 windows-x64"] [--out DIR] [--quiet]
#                           [--reuse <target>=<build folder>]  (a folder configured for that
#                           target already, e.g. scripts/test.sh's static build/: not configured
#                           again, only brought up to date)  [--build-only]  (build the targets'
#                           folders and stop: scripts/test.sh builds linux-arm64 beside its tests,
#                           then runs this script again to pack, which finds it up to date)
# Targets default to what this machine builds: Linux (Debian 12) builds linux-x64,
# linux-arm64 (g++-aarch64-linux-gnu) and windows-x64 (mingw-w64); a Mac builds its own
# CPU's target, macos-arm64 or macos-x64 (Xcode's clang, Homebrew's libraries; README "Releases").  Build folders are
# build-dist/<target>/ (product only, Release, no tests), reused when run again.
# Installs what is missing (Debian packages, the npm tooling in packaging/), sudo when not root.
# OPENTABS_RELEASE_BASE_URL: where the release will be served; dist/install.sh downloads from
# there by default (without it, install.sh needs OPENTABS_BASE_URL).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf '[release] %s\n' "$*" >&2; }

case "$(uname -s)" in
  Darwin) if [ "$(uname -m)" = arm64 ]; then targets="macos-arm64"; else targets="macos-x64"; fi ;;
  *) targets="linux-x64 linux-arm64 windows-x64" ;;
esac
out="$root/dist"
quiet=false
build_only=false
# --reuse: a target's build folder configured for it already (scripts/test.sh's build/).
# Kept in reuse_<target> variables: macOS's bash 3.2 has no associative arrays.
set_reuse() { printf -v "reuse_${1//-/_}" '%s' "$2"; }
reuse_of() { local v="reuse_${1//-/_}"; printf '%s' "${!v:-}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --reuse) [ $# -ge 2 ] && [[ "$2" == *=* ]] || { log "--reuse needs <target>=<build folder>"; exit 2; }
      set_reuse "${2%%=*}" "${2#*=}"; shift 2 ;;
    --targets) [ $# -ge 2 ] || { log "--targets needs a list"; exit 2; }; targets="$2"; shift 2 ;;
    --out) [ $# -ge 2 ] || { log "--out needs a folder"; exit 2; }; out="$2"; shift 2 ;;
    --quiet|-q) quiet=true; shift ;;
    --build-only) build_only=true; shift ;;
    *) log "unknown argument: $1"; exit 2 ;;
  esac
done

version="$(sed -n 's/^project(opentabs VERSION \([0-9][0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"
[ -n "$version" ] || { log "cannot read the version from CMakeLists.txt"; exit 1; }
jobs="$(nproc 2>/dev/null || sysctl -n hw.ncpu)"
work="$root/build-dist"
mkdir -p "$work" "$out"
out="$(cd "$out" && pwd)"
# What an earlier run left in the output folder goes, so SHA256SUMS lists this run alone.
rm -f "$out"/opentabs* "$out/SHA256SUMS" "$out/server.json" "$out/install.sh"
step_log="$work/release.log"
: > "$step_log"
# Reproducible archives: file times from the last commit (or now, outside git).
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}"

run() {
  if ! $quiet; then "$@"; return; fi
  if ! "$@" >>"$step_log" 2>&1; then
    log "failed: $*; the last lines of $step_log:"
    tail -n 40 "$step_log" >&2
    exit 1
  fi
}

# ---- what the targets need (Debian packages: scripts/setup.sh --release) --------------------

if [ "$(uname -s)" = Linux ]; then run "$root/scripts/setup.sh" --release; fi
# The npm tooling of the packaging step (the official mcpb CLI), reinstalled when its lock changes.
stamp="$root/packaging/node_modules/.opentabs-lock-stamp"
sha256_of() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
want=$(sha256_of "$root/packaging/package-lock.json" | cut -c1-64)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  log "installing the packaging tools (packaging/package.json)"
  run bash -c "cd '$root/packaging' && npm ci --no-audit --no-fund --loglevel=error"
  echo "$want" > "$stamp"
fi

# ---- builds ------------------------------------------------------------------------------

# configure_args <target>: the CMake arguments of one target's product build.
# The Windows folder is the one scripts/test.sh's mingw stage builds and tests (with its
# tests on): the same settings here, so the release packs what was tested without a rebuild.
configure_args() {
  local common=(-DCMAKE_BUILD_TYPE=Release -DOPENTABS_BUILD_TESTS=OFF)
  command -v ninja >/dev/null && common=(-G Ninja "${common[@]}")
  case "$1" in
    linux-x64) echo "${common[@]}" -DOPENTABS_STATIC=ON ;;
    linux-arm64)
      "$root/scripts/deps/zlib.sh" aarch64 >/dev/null
      echo "${common[@]}" -DOPENTABS_STATIC=ON "-DCMAKE_TOOLCHAIN_FILE=$root/cmake/toolchains/linux-aarch64.cmake" \
        "-DOPENTABS_RE2_DIR=$("$root/scripts/deps/re2.sh" aarch64)" ;;
    windows-x64)
      echo "${common[@]}" "-DCMAKE_TOOLCHAIN_FILE=$root/cmake/toolchains/mingw-w64.cmake" \
        "-DOPENTABS_RE2_DIR=$("$root/scripts/deps/re2.sh" mingw)" -DOPENTABS_PRECOMPILED_HEADERS=OFF ;;
    macos-arm64|macos-x64)
      # Apple's clang and libc++ with Homebrew's libraries, which are built for the Mac's own
      # CPU: each Mac kind builds its own target (README "Releases").
      echo "${common[@]}" -DCMAKE_OSX_DEPLOYMENT_TARGET=11.0 -DOPENTABS_BOOST_JSON_HEADER_ONLY=ON \
        "-DOPENTABS_THIRDPARTY_INCLUDE_DIR=$(brew --prefix)/include" ;;
    *) log "unknown target $1 (linux-x64, linux-arm64, windows-x64, macos-arm64, macos-x64)"; exit 2 ;;
  esac
}

# build_target <target>: builds the product, installs it stripped into build-dist/stage/<target>.
build_target() {
  local t="$1" dir; dir="$(build_dir_of "$1")"
  local stage="$work/stage/$1"
  if [ -n "$(reuse_of "$t")" ]; then
    log "building $t in $dir (a folder configured for it already)"
  else
    local args; args="$(configure_args "$t")"
    # A folder configured before keeps its generator (CMake refuses to change it).
    [ -f "$dir/CMakeCache.txt" ] && args="${args/-G Ninja /}"
    log "building $t (Release, static, no tests) in build-dist/$t"
    # shellcheck disable=SC2086
    run cmake -S "$root" -B "$dir" $args
  fi
  run nice cmake --build "$dir" -j"$jobs" --target opentabs
  rm -rf "$stage"
  run cmake --install "$dir" --prefix "$stage" --strip
}

build_dir_of() { local r; r="$(reuse_of "$1")"; printf '%s' "${r:-$work/$1}"; }
for t in $targets; do build_target "$t"; done
if $build_only; then log "built: $targets"; exit 0; fi

# ---- archives ----------------------------------------------------------------------------

exe_of() { case "$1" in windows-*) echo opentabs.exe ;; *) echo opentabs ;; esac; }

archive_target() {
  local t="$1" name="opentabs-$version-$1" stage="$work/stage/$1"
  local top="$work/archive/$name"
  rm -rf "$work/archive" && mkdir -p "$top"
  cp -R "$stage/bin" "$stage/share" "$top/"
  [ -f "$stage/register-native-host.cmd" ] && cp "$stage/register-native-host.cmd" "$top/"
  cp "$root/README.md" "$top/"
  local format=tar.gz
  case "$t" in windows-*) format=zip ;; esac
  python3 "$root/packaging/archive.py" "$format" "$out/$name.$format" "$work/archive" "$name"
}

deb_target() {
  local t="$1"
  case "$t" in linux-x64|linux-arm64) ;; *) return 0 ;; esac
  local dir; dir="$(build_dir_of "$t")"
  rm -rf "$dir/cpack"
  (cd "$dir" && run cpack -G DEB -B "$dir/cpack")
  cp "$dir/cpack"/opentabs_"$version"_*.deb "$out/"
}

for t in $targets; do
  log "packing $t"
  archive_target "$t"
  deb_target "$t"
done

# ---- npm, the MCP bundle, the Claude Code plugin, the registry entry ----------------------

log "packing the npm packages, the MCP bundle and the Claude Code plugin"
run node "$root/packaging/pack.mjs" --version "$version" --stage "$work/stage" --work "$work/packaging" --out "$out" --targets "$targets"
# The install script knows where this release is served when the release is told.
sed "s|@RELEASE_BASE_URL@|${OPENTABS_RELEASE_BASE_URL:-@RELEASE_BASE_URL@}|" "$root/scripts/install.sh" > "$out/install.sh"
chmod 755 "$out/install.sh"

# ---- checksums ---------------------------------------------------------------------------

(cd "$out" && for f in *; do [ "$f" = SHA256SUMS ] || [ ! -f "$f" ] || echo "$f"; done | LC_ALL=C sort |
  while read -r f; do sha256_of "$f"; done > SHA256SUMS)
log "done: $out"
(cd "$out" && for f in *; do printf '[release]   %10d  %s\n' "$(wc -c < "$f")" "$f"; done) >&2
