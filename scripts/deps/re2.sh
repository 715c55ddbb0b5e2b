#!/usr/bin/env bash
# Builds RE2 as a static library from Debian's own source package, for a build whose C++
# standard library or target differs from the system's libre2 (built for libstdc++ on
# Linux): the clang/libc++ build and the cross builds for Windows and Linux arm64.
#   scripts/deps/re2.sh libcxx   clang-16 with -stdlib=libc++   -> build-deps/libcxx/re2
#   scripts/deps/re2.sh mingw    x86_64-w64-mingw32-g++-posix    -> build-deps/mingw/re2
#   scripts/deps/re2.sh aarch64  aarch64-linux-gnu-g++           -> build-deps/aarch64/re2
# Prints the install prefix (pass it as -DOPENTABS_RE2_DIR=<prefix>).  The source comes
# from `apt-get source re2` (scripts/deps/debian_source.sh) and is kept in build-deps/src;
# a prefix whose stamp matches the source version and the flags is reused, so running this
# again costs nothing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
flavour="${1:-}"
log() { printf '[deps/re2] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

case "$flavour" in
  libcxx) cmake_args=(-DCMAKE_CXX_COMPILER=clang++-16 "-DCMAKE_CXX_FLAGS=-stdlib=libc++"
            "-DCMAKE_EXE_LINKER_FLAGS=-stdlib=libc++") ;;
  mingw)  cmake_args=("-DCMAKE_TOOLCHAIN_FILE=$root/cmake/toolchains/mingw-w64.cmake") ;;
  aarch64) cmake_args=("-DCMAKE_TOOLCHAIN_FILE=$root/cmake/toolchains/linux-aarch64.cmake") ;;
  *) log "usage: scripts/deps/re2.sh libcxx|mingw|aarch64"; exit 2 ;;
esac

deps="$root/build-deps"
# shellcheck source=scripts/deps/debian_source.sh
. "$root/scripts/deps/debian_source.sh"
src="$(debian_source re2)"

# Debian's source leaves out RE2's generated tables (its build regenerates them, the Unicode
# ones from the unicode-data package, as the Makefile's REBUILD_TABLES does); so does this script.
if [ ! -f "$src/re2/perl_groups.cc" ]; then
  (cd "$src" && perl re2/make_perl_groups.pl > re2/perl_groups.cc.tmp && mv re2/perl_groups.cc.tmp re2/perl_groups.cc)
fi
for table in casefold groups; do
  if [ ! -f "$src/re2/unicode_$table.cc" ]; then
    [ -f /usr/share/unicode/CaseFolding.txt ] || as_root env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -q --no-install-recommends unicode-data python3 >/dev/null
    (cd "$src" && python3 "re2/make_unicode_$table.py" > "re2/unicode_$table.cc.tmp" &&
      mv "re2/unicode_$table.cc.tmp" "re2/unicode_$table.cc")
  fi
done

prefix="$deps/$flavour/re2"
want="$(basename "$src") ${cmake_args[*]}"
stamp="$prefix/.opentabs-stamp"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$prefix/lib/libre2.a" ]; then
  echo "$prefix"; exit 0
fi
log "building $(basename "$src") for $flavour"
rm -rf "$deps/$flavour/re2-build" "$prefix"
cmake -S "$src" -B "$deps/$flavour/re2-build" "${cmake_args[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DBUILD_SHARED_LIBS=OFF -DRE2_BUILD_TESTING=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib >/dev/null
nice cmake --build "$deps/$flavour/re2-build" -j2 --target re2 >/dev/null
cmake --install "$deps/$flavour/re2-build" >/dev/null
echo "$want" > "$stamp"
echo "$prefix"
