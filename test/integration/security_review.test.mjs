// Review state from the attacker's and the careless client's side (issue 13, item 9): the real
// binary, a scripted extension on /ws.  A plugin becomes reviewed only through
// config.setPluginPermission with a reviewedVersion equal to the version installed now (the
// side panel sends it only when its confirmation was accepted) or plugin_mark_reviewed; a
// permission set any other way (no reviewedVersion, a tool override) leaves it unreviewed, and a
// reviewedVersion for another version, or for something that is not a plugin, is refused.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';

const NOTES = new URL('../fixtures/plugins/notes', import.meta.url).pathname;
const PLUGIN = 'fixture-notes';
const VERSION = JSON.parse(readFileSync(join(NOTES, 'package.json'), 'utf8')).version;

describe('reviewedVersion over /ws', () => {
  let s;
  let ext;
  const entry = () => JSON.parse(readFileSync(join(s.configDir, 'config.json'), 'utf8')).permissions?.[PLUGIN];
  const reviewed = async () => (await ext.request('config.getState')).result.plugins.find((p) => p.name === PLUGIN).reviewed;

  before(async () => {
    s = await startServer({ config: { version: 3, localPlugins: [NOTES], additionalAllowedDirectories: [NOTES], updateCheckIntervalMinutes: 0 } });
    ext = await new ExtensionClient(s).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
  });
  after(async () => {
    await ext?.close();
    await s.stop();
  });

  test('a permission set without reviewedVersion, or on one tool, does not make the plugin reviewed', async () => {
    const plain = await ext.request('config.setPluginPermission', { plugin: PLUGIN, permission: 'ask' });
    assert.deepEqual(plain.result, { ok: true });
    assert.deepEqual(entry(), { permission: 'ask' });
    assert.equal(await reviewed(), false);
    const tool = await ext.request('config.setToolPermission', { plugin: PLUGIN, tool: 'echo', permission: 'auto' });
    assert.deepEqual(tool.result, { ok: true });
    assert.equal(entry().reviewedVersion, undefined);
    assert.equal(await reviewed(), false);
  });

  test('a reviewedVersion that is not the installed version, not a string, or not for a plugin is refused and changes nothing', async () => {
    const before = entry();
    const other = await ext.request('config.setPluginPermission', { plugin: PLUGIN, permission: 'auto', reviewedVersion: '0.0.1' });
    assert.equal(other.error?.code, -32602);
    assert.match(other.error.message, new RegExp(`reviewedVersion "0\\.0\\.1" is not the installed version ${VERSION.replaceAll('.', '\\.')} of ${PLUGIN}`));
    const number = await ext.request('config.setPluginPermission', { plugin: PLUGIN, permission: 'auto', reviewedVersion: 1 });
    assert.match(number.error?.message ?? '', /reviewedVersion must be a string/);
    const all = await ext.request('config.setAllToolsPermission', { plugin: PLUGIN, permission: 'auto', reviewedVersion: '9.9.9' });
    assert.equal(all.error?.code, -32602);
    assert.deepEqual(entry(), before);
    assert.equal(await reviewed(), false);
    const browser = await ext.request('config.setPluginPermission', { plugin: 'browser', permission: 'ask', reviewedVersion: VERSION });
    assert.match(browser.error?.message ?? '', /reviewedVersion applies to installed plugins only/);
    const cfg = JSON.parse(readFileSync(join(s.configDir, 'config.json'), 'utf8'));
    assert.equal(cfg.permissions?.browser, undefined);
  });

  test('the installed version as reviewedVersion (the accepted confirmation) marks it reviewed', async () => {
    const ok = await ext.request('config.setPluginPermission', { plugin: PLUGIN, permission: 'auto', reviewedVersion: VERSION });
    assert.deepEqual(ok.result, { ok: true });
    assert.deepEqual(entry(), { permission: 'auto', reviewedVersion: VERSION });
    assert.equal(await reviewed(), true);
  });
});
