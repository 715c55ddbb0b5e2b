// What the original OpenTabs `opentabs-plugin build` does to register a plugin, step by
// step, so tests can show opentabs honours the same config lock: mkdir
// `<config dir>/config.json.lock` (atomic; EEXIST means held), write its pid to
// `config.json.lock/pid.txt`, retry 20 times 50 ms apart, remove a lock directory older than
// five minutes whose pid is no longer alive, then add the plugin directory to
// `localPlugins`, remove the lock directory, and POST /reload.  Written from the
// original's protocol (spec §1.6 step 7) because its npm package cannot be installed here.
import { mkdirSync, writeFileSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const RETRIES = 20;
const RETRY_MS = 50;
const STALE_MS = 5 * 60 * 1000;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

function staleLock(lockDir) {
  try {
    if (Date.now() - statSync(lockDir).mtimeMs <= STALE_MS) return false;
    let pid = NaN;
    try {
      pid = Number(readFileSync(join(lockDir, 'pid.txt'), 'utf8').trim());
    } catch {}
    return !(pid > 0 && alive(pid));
  } catch {
    return false;
  }
}

/** The original's acquire: true when this process holds `<config>.lock`. */
export async function acquireOriginalLock(configDir, pid = process.pid) {
  const lockDir = join(configDir, 'config.json.lock');
  for (let i = 0; i < RETRIES; i++) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid.txt'), String(pid));
      return true;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (staleLock(lockDir)) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }
  return false;
}

export function releaseOriginalLock(configDir) {
  rmSync(join(configDir, 'config.json.lock'), { recursive: true, force: true });
}

/** Adds `pluginDir` to localPlugins under the lock; returns the build's message. */
export async function registerLikeOriginalBuild(configDir, pluginDir) {
  if (!(await acquireOriginalLock(configDir)))
    return { ok: false, message: 'Could not auto-register plugin: Could not acquire config lock — another build may be running' };
  try {
    const path = join(configDir, 'config.json');
    const config = JSON.parse(readFileSync(path, 'utf8'));
    config.localPlugins = config.localPlugins ?? [];
    if (!config.localPlugins.includes(pluginDir)) config.localPlugins.push(pluginDir);
    writeFileSync(`${path}.tmp.${process.pid}`, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
    renameSync(`${path}.tmp.${process.pid}`, path);
    return { ok: true, message: `Registered ${pluginDir} in localPlugins` };
  } finally {
    releaseOriginalLock(configDir);
  }
}
