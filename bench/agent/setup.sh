#!/bin/sh
# Installs the peers the agent benchmark compares opentabs with (Playwright MCP, Chrome DevTools
# MCP) into bench/agent/node_modules, at the versions package-lock.json pins.  Bench-only: the
# tests and CI never install them.  Both drive the system Chromium (OPENTABS_BENCH_CHROMIUM,
# default /usr/bin/chromium); neither downloads a browser.
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
