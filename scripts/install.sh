#!/bin/sh
# Installs the prebuilt opentabs for this machine (Linux x86-64/arm64, macOS arm64/x86-64)
# into a prefix, without a compiler and without sudo:
#   curl -fsSL <release URL>/install.sh | sh
#   sh install.sh [--prefix DIR]        (default ~/.local: DIR/bin/opentabs, DIR/share/opentabs)
# OPENTABS_BASE_URL is the folder the release's files are in (SHA256SUMS beside the
# archives); a release made with OPENTABS_RELEASE_BASE_URL set has that folder as default.  The archive's SHA-256 must match
# SHA256SUMS or nothing is installed.  Installing over an older version replaces the
# binary and the extension files only; ~/.opentabs (config, secret, audit log) is never touched.
set -eu

base_url="${OPENTABS_BASE_URL:-@RELEASE_BASE_URL@}"
prefix="${HOME:-}/.local"

say() { printf 'opentabs install: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || die "--prefix needs a folder"; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    -h|--help) sed -n '2,9p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1 (use --prefix DIR)" ;;
  esac
done
[ -n "$prefix" ] || die "no prefix: HOME is not set; give --prefix DIR"
case "$base_url" in
  "@"*"@") die "set OPENTABS_BASE_URL to the address of the folder holding the release (its SHA256SUMS and archives)" ;;
esac

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=macos ;;
  *) die "no prebuilt opentabs for $(uname -s); there are builds for Linux and macOS (x86-64, arm64), a Windows zip, and npm: npm install -g @opentabs-cpp/opentabs" ;;
esac
case "$(uname -m)" in
  x86_64|amd64) cpu=x64 ;;
  aarch64|arm64) cpu=arm64 ;;
  *) die "no prebuilt opentabs for $(uname -m) CPUs; there are builds for x86-64 and arm64. Build from source: scripts/start.sh in a checkout" ;;
esac

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  die "neither curl nor wget is installed; install one of them and run this again"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
else
  die "no sha256sum or shasum to check the download with"
fi

# The prefix must be writable before anything is downloaded or changed.
mkdir -p "$prefix" 2>/dev/null || die "cannot create $prefix; choose another with --prefix DIR (no sudo needed for ~/.local)"
[ -w "$prefix" ] || die "cannot write to $prefix; choose another with --prefix DIR (no sudo needed for ~/.local)"
prefix="$(cd "$prefix" && pwd)"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/opentabs-install.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT INT TERM

fetch "$base_url/SHA256SUMS" "$tmp/SHA256SUMS" || die "cannot download $base_url/SHA256SUMS (check OPENTABS_BASE_URL and the network)"
line="$(grep -E "  opentabs-[0-9][0-9A-Za-z.+-]*-$os-$cpu\.tar\.gz\$" "$tmp/SHA256SUMS" | head -n 1 || true)"
[ -n "$line" ] || die "the release at $base_url has no archive for $os-$cpu"
want="${line%%  *}"
archive="${line#*  }"
printf '%s' "$want" | grep -Eq '^[0-9a-f]{64}$' || die "SHA256SUMS has no valid SHA-256 for $archive"
say "downloading $archive"
fetch "$base_url/$archive" "$tmp/$archive" || die "cannot download $base_url/$archive (the download failed or was cut short); nothing was installed"
got="$(sha256 "$tmp/$archive")"
[ "$got" = "$want" ] || die "$archive does not match SHA256SUMS (expected $want, got $got): the download is damaged or was tampered with; nothing was installed"

mkdir "$tmp/unpacked"
tar -xzf "$tmp/$archive" -C "$tmp/unpacked" 2>/dev/null || die "$archive is not a readable .tar.gz; nothing was installed"
top="$tmp/unpacked/${archive%.tar.gz}"
[ -x "$top/bin/opentabs" ] && [ -f "$top/share/opentabs/extension/manifest.json" ] ||
  die "$archive does not hold bin/opentabs and share/opentabs/extension; nothing was installed"
"$top/bin/opentabs" --version >/dev/null 2>&1 || die "the downloaded opentabs does not run on this machine ($os-$cpu); nothing was installed"

# Each piece is put beside its destination first and then renamed over it, so an
# interrupted install leaves the old version or the new one, never half of one.
mkdir -p "$prefix/bin" "$prefix/share/opentabs"
cp "$top/bin/opentabs" "$prefix/bin/.opentabs.new"
chmod 755 "$prefix/bin/.opentabs.new"
rm -rf "$prefix/share/opentabs/.extension.new" "$prefix/share/opentabs/.extension.old"
cp -R "$top/share/opentabs/extension" "$prefix/share/opentabs/.extension.new"
if [ -d "$prefix/share/opentabs/extension" ]; then mv "$prefix/share/opentabs/extension" "$prefix/share/opentabs/.extension.old"; fi
mv "$prefix/share/opentabs/.extension.new" "$prefix/share/opentabs/extension"
mv -f "$prefix/bin/.opentabs.new" "$prefix/bin/opentabs"
rm -rf "$prefix/share/opentabs/.extension.old"

version="$("$prefix/bin/opentabs" --version 2>/dev/null || echo '?')"
say "installed opentabs $version: $prefix/bin/opentabs"
found="$(command -v opentabs 2>/dev/null || true)"
if [ -n "$found" ] && [ "$found" != "$prefix/bin/opentabs" ]; then
  say "another opentabs comes first on your PATH: $found ($("$found" --version 2>/dev/null | head -n 1 || echo 'unknown version')); it may be the original OpenTabs CLI (npm @opentabs-dev/cli): remove it (npm uninstall -g @opentabs-dev/cli) or put $prefix/bin first on PATH"
elif [ -z "$found" ]; then
  say "$prefix/bin is not on your PATH; add it: echo 'export PATH=\"$prefix/bin:\$PATH\"' >> ~/.profile && export PATH=\"$prefix/bin:\$PATH\""
fi
say "next: opentabs start   (then load the extension: opentabs extension install)"
