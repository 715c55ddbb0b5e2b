#!/bin/sh
# The MCP bundle's entry point on Linux and macOS: runs the binary of this machine's
# platform from the folder beside this script (server/<os>-<cpu>/bin/opentabs).
here=$(cd "$(dirname "$0")" && pwd)
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=macos ;;
  *) echo "opentabs: no binary in this bundle for $(uname -s)" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64|amd64) cpu=x64 ;;
  aarch64|arm64) cpu=arm64 ;;
  *) echo "opentabs: no binary in this bundle for $(uname -m)" >&2; exit 1 ;;
esac
exe="$here/$os-$cpu/bin/opentabs"
if [ ! -x "$exe" ]; then
  echo "opentabs: this bundle has no binary for $os-$cpu; it has: $(ls "$here" | grep -v launch.sh | tr '\n' ' ')" >&2
  exit 1
fi
exec "$exe" "$@"
