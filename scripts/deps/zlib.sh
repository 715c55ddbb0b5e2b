#!/usr/bin/env bash
# Builds zlib as a static library from Debian's own source package for a Linux cross target
# that Debian ships no zlib for without multiarch (which would change the machine's package
# set): the arm64 release build.
#   scripts/deps/zlib.sh aarch64   aarch64-linux-gnu-gcc   -> build-deps/aarch64/zlib
# Prints the install prefix (the aarch64 toolchain file finds it there).  Reused while its
# stamp matches the source version and the flags.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
flavour="${1:-}"
log() { printf '[deps/zlib] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

case "$flavour" in
  aarch64) cc=aarch64-linux-gnu-gcc; ar=aarch64-linux-gnu-ar ;;
  *) log "usage: scripts/deps/zlib.sh aarch64"; exit 2 ;;
esac

# shellcheck source=scripts/deps/debian_source.sh
. "$root/scripts/deps/debian_source.sh"
src="$(debian_source zlib)"

prefix="$root/build-deps/$flavour/zlib"
cflags="-O2 -fPIC -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN"
want="$(basename "$src") $cc $cflags"
stamp="$prefix/.opentabs-stamp"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$prefix/lib/libz.a" ]; then
  echo "$prefix"; exit 0
fi
log "building $(basename "$src") for $flavour"
# The library's sources as zlib's own Makefile lists them (OBJZ and OBJG): the C files at
# the top of the tree, without the example and test programs.
objects="$root/build-deps/$flavour/zlib-build"
rm -rf "$objects" "$prefix"
mkdir -p "$objects" "$prefix/lib" "$prefix/include"
for unit in adler32 crc32 deflate infback inffast inflate inftrees trees zutil compress uncompr \
            gzclose gzlib gzread gzwrite; do
  # shellcheck disable=SC2086
  "$cc" $cflags -c "$src/$unit.c" -o "$objects/$unit.o"
done
"$ar" rcs "$prefix/lib/libz.a" "$objects"/*.o
cp "$src/zlib.h" "$src/zconf.h" "$prefix/include/"
echo "$want" > "$stamp"
echo "$prefix"
