// Runs the opentabs binary as a command-line program, for the tests of its CLI modes (start,
// stop, extension install, the stdio bridge's auto-start), and checks on the processes it
// leaves behind.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { OPENTABS_BIN } from './server.mjs';

// Runs `bin` to its exit with exactly `env`; resolves with its exit code and output.
export function runBinary(bin, args, env) {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// A minimal environment for the CLI: no colours, no npm plugin discovery; `env` adds to it.
export function cliEnv(env) {
  return { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', OPENTABS_SKIP_NPM_DISCOVERY: '1', ...env };
}

// Runs OPENTABS_BIN with cliEnv(env).
export function cli(args, env) {
  return runBinary(OPENTABS_BIN, args, cliEnv(env));
}

// Running, not merely a zombie waiting for a reaper (a detached server's parent exits).
export function alive(pid) {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
