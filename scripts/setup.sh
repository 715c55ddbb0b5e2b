#!/usr/bin/env bash
# Installs what opentabs needs, idempotently (only what is missing; sudo when not root).
#   scripts/setup.sh            everything to build and test: Debian packages (compiler, C++
#                               libraries, Node.js/npm, Chromium), the npm packages of the JS
#                               test side; then configures and builds the whole tree (product
#                               and tests) into build/.  Used by scripts/test.sh.
#   scripts/setup.sh --product  only what the product needs to build (compiler, CMake, the
#                               C++ libraries): no Chromium, no Node.js, no npm packages, no
#                               build.  Used by scripts/start.sh, which builds the product itself.
#   scripts/setup.sh --release  what scripts/release.sh needs: the product's packages, the
#                               cross compilers (arm64, mingw-w64), Node.js/npm, ninja and the
#                               tools that rebuild RE2 and zlib from Debian's sources; no build.
#   --no-build                  (with the full set) install packages but do not build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

log() { printf '[setup] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

product=false
release=false
build=true
for arg in "$@"; do
  case "$arg" in
    --product) product=true; build=false ;;
    --release) release=true; build=false ;;
    --no-build) build=false ;;
    *) log "unknown argument: $arg (use --product, --release or --no-build)"; exit 2 ;;
  esac
done

# The product: compiler, build tools and the C++ libraries the binary is built from
# (RE2 runs JSON Schema patterns, its runtime library is libre2-9; zlib compresses tools/list).
product_packages=(g++ cmake make pkg-config
  libasio-dev libwebsocketpp-dev rapidjson-dev libboost-json1.81-dev libre2-dev zlib1g-dev)
# Building and running the tests as well: doctest, Node.js for the integration and e2e
# suites, Chromium for e2e, git and jq for the scripts.
test_packages=(git ca-certificates doctest-dev nodejs npm chromium jq)
# The extra toolchains scripts/test.sh builds with: clang-16 with libc++, and mingw-w64 for
# Windows with its zlib and Wine to run what it builds; RE2's source is rebuilt for both
# (scripts/deps/re2.sh: dpkg-dev unpacks it, perl, python3 and unicode-data regenerate its tables).
test_packages+=(ninja-build clang-16 libc++-16-dev libc++abi-16-dev g++-mingw-w64-x86-64-posix libz-mingw-w64-dev
  wine64 dpkg-dev perl python3 unicode-data)
# The release stage: the arm64 cross compiler (RE2 and zlib are rebuilt from Debian's sources
# for it) and qemu-user to run what it builds.
test_packages+=(g++-aarch64-linux-gnu qemu-user-static)

# scripts/release.sh: every target it builds on Linux, and the Node.js of the packaging step.
release_packages=(ninja-build nodejs npm dpkg-dev perl python3 unicode-data g++-aarch64-linux-gnu
  g++-mingw-w64-x86-64-posix libz-mingw-w64-dev)

apt_packages=("${product_packages[@]}")
if $release; then apt_packages+=("${release_packages[@]}")
elif ! $product; then apt_packages+=("${test_packages[@]}"); fi
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# A Node.js from another source (e.g. nodesource) ships npm itself; don't fight it.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
filtered=(); for p in "${missing[@]}"; do [ -n "$p" ] && filtered+=("$p"); done
if [ ${#filtered[@]} -gt 0 ]; then
  log "installing Debian packages: ${filtered[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${filtered[@]}" >/dev/null
fi
if $product || $release; then exit 0; fi

# npm packages of the test side, reinstalled only when package-lock.json changed.
stamp=test/node_modules/.opentabs-lock-stamp
want=$(sha256sum test/package-lock.json | cut -c1-64)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  log "installing npm packages in test/"
  (cd test && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" > "$stamp"
fi

if $build; then
  log "building (build/)"
  # OPENTABS_STATIC: the binary is the static one the release ships (scripts/test.sh's release
  # stage packs it), so the integration and e2e suites run what users get.
  cmake -S . -B build -DCMAKE_BUILD_TYPE="${OPENTABS_BUILD_TYPE:-RelWithDebInfo}" -DOPENTABS_BUILD_TESTS=ON -DOPENTABS_STATIC=ON >/dev/null
  cmake --build build -j"$(nproc)"
fi
