#!/usr/bin/env bash
# Sourced by the scripts in scripts/deps/: fetches a Debian source package into a folder of
# the project (build-deps/src), adding a deb-src entry for Debian's own mirror when the
# machine has none.  Debian's sources are what this project may build from: the mirror is
# the one package source the project's machines reach.
#   debian_source <package>   prints the unpacked source folder (fetched once, then reused)

debian_source() {
  local package="$1"
  local parent="$root/build-deps/src"
  mkdir -p "$parent"
  local src
  src=$(find "$parent" -maxdepth 1 -type d -name "$package-*" | sort | tail -n1)
  if [ -n "$src" ]; then echo "$src"; return 0; fi
  if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    log "adding a deb-src entry for Debian bookworm (source packages from the same mirror)"
    as_root tee /etc/apt/sources.list.d/opentabs-deb-src.sources >/dev/null <<'SOURCES'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
  fi
  command -v dpkg-source >/dev/null || as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends dpkg-dev >/dev/null
  log "fetching Debian's $package source package"
  (cd "$parent" && apt-get source -q "$package" >/dev/null 2>&1) || { log "apt-get source $package failed"; return 1; }
  src=$(find "$parent" -maxdepth 1 -type d -name "$package-*" | sort | tail -n1)
  [ -n "$src" ] || { log "apt-get source $package left no $package-* folder"; return 1; }
  echo "$src"
}
