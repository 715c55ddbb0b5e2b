#!/usr/bin/env node
// `opentabs` from npm: runs the prebuilt binary of this machine's platform package
// (@opentabs-cpp/opentabs-<os>-<cpu>, an optional dependency npm installs only where its
// os/cpu match), with this process's arguments, standard streams and exit status.  No
// postinstall download: the binary arrived with the platform package.
'use strict';
const { spawn } = require('node:child_process');
const { accessSync, chmodSync, constants } = require('node:fs');
const { dirname, join } = require('node:path');

const PLATFORMS = {
  'linux-x64': '@opentabs-cpp/opentabs-linux-x64',
  'linux-arm64': '@opentabs-cpp/opentabs-linux-arm64',
  'win32-x64': '@opentabs-cpp/opentabs-win32-x64',
  'darwin-arm64': '@opentabs-cpp/opentabs-darwin-arm64',
  'darwin-x64': '@opentabs-cpp/opentabs-darwin-x64',
};
const FROM_SOURCE = 'git clone <the opentabs repository> && cd opentabs && scripts/start.sh';

function fail(line) {
  process.stderr.write(`opentabs: ${line}\n`);
  process.exit(1);
}

function binaryPath() {
  const key = `${process.platform}-${process.arch}`;
  const pkg = PLATFORMS[key];
  if (!pkg)
    fail(`no prebuilt binary for ${key}; there are packages for ${Object.keys(PLATFORMS).join(', ')}. ` +
      `On another platform build it from source: ${FROM_SOURCE}`);
  let root;
  try {
    root = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    fail(`${pkg} (the binary for ${key}) is not installed beside @opentabs-cpp/opentabs (npm skips it when optional ` +
      `dependencies are omitted or its download failed). Install again with: npm install -g @opentabs-cpp/opentabs --include=optional`);
  }
  const exe = join(root, 'bin', process.platform === 'win32' ? 'opentabs.exe' : 'opentabs');
  if (process.platform !== 'win32') {
    try {
      accessSync(exe, constants.X_OK);
    } catch {
      try {
        chmodSync(exe, 0o755);  // a package manager that dropped the execute bit
      } catch {
        fail(`${exe} is missing or not executable; reinstall @opentabs-cpp/opentabs`);
      }
    }
  }
  return exe;
}

const child = spawn(binaryPath(), process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
// A signal for this process is meant for opentabs (an MCP client stopping its server).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('error', (e) => fail(`cannot run ${child.spawnfile}: ${e.message}`));
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
