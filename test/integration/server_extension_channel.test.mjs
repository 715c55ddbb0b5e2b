// Issue 2 end to end: the real binary on an ephemeral port, a real WebSocket client playing
// the extension.  Covers the /ws handshake and auth, sync.full, ping/pong, connectionId
// replacement, tool dispatch through REST with audit, timeouts (test knob), progress,
// disconnect mid-call, late replies, config.* methods and the confirmation flow.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, serverPath } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';

const browserAuto = { permissions: { browser: { permission: 'auto' } } };

describe('extension channel /ws', () => {
  let s;
  before(async () => {
    s = await startServer({ config: browserAuto });
  });
  after(async () => {
    await s.stop();
  });

  test('a wrong secret gets HTTP 401 on the raw socket', async () => {
    const bad = new ExtensionClient(s, { protocols: ['opentabs', 'f'.repeat(64), 'x'] });
    await assert.rejects(bad.connect(), (e) => e.status === 401);
  });

  test('a browser page Origin is refused with 403', async () => {
    const c = new ExtensionClient(s, { origin: 'http://evil.example.com' });
    await assert.rejects(c.connect(), (e) => e.status === 403);
  });

  test('handshake answers with exactly "opentabs", then sync.full, and ping gets pong', async () => {
    const ext = await new ExtensionClient(s).connect();
    assert.equal(ext.ws.protocol, 'opentabs');
    const sync = await ext.waitFor((m) => m.method === 'sync.full');
    // The keys the real server sends (spec §3.6, observed), extensionHash included.
    assert.deepEqual(Object.keys(sync.params).sort(), [
      'browserPermission', 'browserTools', 'extensionHash', 'failedPlugins', 'plugins', 'serverSourcePath', 'serverVersion', 'skipPermissions',
    ].sort());
    assert.match(sync.params.extensionHash, /^[0-9a-f]{16}$/);
    assert.ok(Array.isArray(sync.params.browserTools) && sync.params.browserTools.length >= 76);
    assert.equal(sync.params.browserPermission, 'auto');
    ext.notify('ping');
    await ext.next((m) => m.method === 'pong');
    await ext.close();
  });

  test('same connectionId replaces the old socket; a client without an id replaces the only one', async () => {
    const a = await new ExtensionClient(s, { connectionId: 'profile-a' }).connect();
    const a2 = await new ExtensionClient(s, { connectionId: 'profile-a' }).connect();
    const closedA = await a.closed;
    assert.equal(closedA.code, 1000);
    assert.equal(closedA.reason, 'Replaced by same-profile reconnect');
    const legacy = await new ExtensionClient(s, { connectionId: null }).connect();
    const closedA2 = await a2.closed;
    assert.equal(closedA2.reason, 'Replaced by new connection');
    await legacy.close();
  });

  test('browser_list_tabs over REST relays browser.listTabs and lands in /audit and audit.log', async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'conn-list' }).connect();
    ext.on('browser.listTabs', (params) => {
      assert.match(params.__opentabs_dispatchId, /^[0-9a-f-]{36}$/);
      return [{ id: 41, title: 'Example', url: 'https://example.com/', active: true, windowId: 1 }];
    });
    const r = await s.callTool('browser_list_tabs', {});
    assert.equal(r.status, 200);
    const tabs = JSON.parse(r.body.content[0].text);
    assert.deepEqual(tabs, [{ id: 41, title: 'Example', url: 'https://example.com/', active: true, windowId: 1, connectionId: 'conn-list' }]);
    const req = ext.messages.find((m) => m.method === 'browser.listTabs');
    assert.equal(req.id, req.params.__opentabs_dispatchId);
    const audit = await (await s.fetch('/audit?tool=browser_list_tabs&limit=5')).json();
    assert.equal(audit[0].tool, 'browser_list_tabs');
    assert.equal(audit[0].plugin, 'browser');
    assert.equal(audit[0].success, true);
    const lines = readFileSync(join(s.configDir, 'audit.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.ok(lines.some((e) => e.tool === 'browser_list_tabs' && e.success));
    await ext.close();
  });

  test('an extension error comes back as isError with status 422 and is audited as a failure', async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'conn-err' }).connect();
    ext.on('browser.getTabInfo', () => {
      throw Object.assign(new Error('Tab 9 does not exist'), { code: -32001 });
    });
    const r = await s.callTool('browser_get_tab_info', { tabId: 9 });
    assert.equal(r.status, 422);
    assert.equal(r.body.isError, true);
    assert.match(r.body.content[0].text, /^Browser tool error: Tab 9 does not exist/);
    const audit = await (await s.fetch('/audit?success=false&limit=1')).json();
    assert.equal(audit[0].error.code, '-32001');
    await ext.close();
  });

  test('arguments are validated before anything reaches the extension', async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'conn-val' }).connect();
    const before = ext.messages.length;
    const r = await s.callTool('browser_get_tab_info', { tabId: 'nine' });
    assert.equal(r.status, 422);
    assert.match(r.body.content[0].text, /^Invalid arguments:\n {2}- \/tabId: /);
    const r2 = await s.callTool('browser_get_tab_info', { tabId: 1, bogus: true });
    assert.match(r2.body.content[0].text, /Invalid arguments/);
    assert.equal(ext.messages.slice(before).filter((m) => m.method?.startsWith('browser.')).length, 0);
    await ext.close();
  });

  test('unknown tools get 404 with the closest names', async () => {
    const r = await s.callTool('browser_list_tab', {});
    assert.equal(r.status, 404);
    assert.match(r.body.content[0].text, /Tool browser_list_tab not found\. Did you mean: browser_list_tabs/);
  });

  test('when the extension drops mid-call the call fails at once', async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'conn-drop' }).connect();
    ext.on('browser.navigateTab', () => {
      ext.terminate();
      return undefined; // never answers
    });
    const t0 = Date.now();
    const r = await s.callTool('browser_navigate_tab', { tabId: 1, url: 'https://example.com/' });
    assert.equal(r.status, 422);
    assert.match(r.body.content[0].text, /Extension disconnected/);
    assert.ok(Date.now() - t0 < 5000);
  });

  test('no extension: a clear error', async () => {
    const r = await s.callTool('browser_open_tab', { url: 'https://example.com/' });
    assert.equal(r.status, 422);
    assert.match(r.body.content[0].text, /Extension not connected/);
  });

  // Issue 14 item 2: the original OpenTabs extension drops methods outside its allow-list
  // without an answer, so the server must know what the connected extension handles.
  test('an extension that announces no capabilities (the original) gets an immediate clear error for browser_snapshot', { timeout: 10_000 }, async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'conn-original' }).connect();
    ext.on('browser.snapshot', () => ({ snapshot: 'must not be asked' }));
    ext.on('browser.getTabInfo', () => ({ id: 3, title: 'T', url: 'https://example.com/' }));
    const r = await s.callTool('browser_snapshot', { tabId: 3 });
    assert.equal(r.status, 422);
    assert.equal(r.body.isError, true);
    const extDir = serverPath(join(s.configDir, 'extension'));
    assert.equal(r.body.content[0].text,
      `Browser tool error: the connected extension does not support browser_snapshot; load the opentabs extension from ${extDir}`);
    assert.equal(ext.messages.filter((m) => m.method === 'browser.snapshot').length, 0, 'nothing was sent that would never be answered');
    // Methods of the original extension still go through.
    const info = await s.callTool('browser_get_tab_info', { tabId: 3 });
    assert.equal(info.status, 200, JSON.stringify(info.body));
    const audit = await (await s.fetch('/audit?tool=browser_snapshot&limit=1')).json();
    assert.equal(audit[0].success, false);
    await ext.close();
  });

  test('an extension that announces browser.snapshot gets it; a malformed announcement is refused and changes nothing', { timeout: 10_000 }, async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'conn-ours', capabilities: true }).connect();
    ext.on('browser.snapshot', (p) => ({ snapshot: `- document [ref=e1@abcd] tab ${p.tabId}`, truncated: false }));
    const r = await s.callTool('browser_snapshot', { tabId: 4 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // Plain text: a metadata line that opens the marked page content, the snapshot lines,
    // and the end mark with the boundary the first line named.
    const [meta, ...lines] = r.body.content[0].text.split('\n');
    assert.match(meta, /^page /);
    const boundary = meta.match(/until "\[\/page ([0-9a-f]+)\]"/)?.[1];
    assert.ok(boundary, meta);
    assert.deepEqual(lines, ['- document [ref=e1@abcd] tab 4', `[/page ${boundary}]`]);
    const bad = await ext.request('extension.capabilities', { methods: 'browser.snapshot' });
    assert.equal(bad.error.code, -32602);
    assert.match(bad.error.message, /"methods": an array of method names/);
    assert.equal((await s.callTool('browser_snapshot', { tabId: 5 })).status, 200, 'the earlier announcement still holds');
    await ext.close();
  });

  test('invalid frames are dropped and the connection keeps working', async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'conn-junk' }).connect();
    ext.send('this is not json');
    ext.send('[1,2,3]');
    ext.send(JSON.stringify({ jsonrpc: '2.0', method: 'tab.syncAll', params: 'not an object' }));
    const r = await ext.request('config.getState', 'wrong');
    assert.equal(r.error.code, -32602);
    ext.notify('ping');
    await ext.next((m) => m.method === 'pong');
    const unknown = await ext.request('no.such.method', {});
    assert.equal(unknown.error.code, -32601);
    assert.match(unknown.error.message, /Method not found: no.such.method/);
    // A plugin.* name the server does not handle is unknown too (it was -32603 once, from
    // the plugin-management dispatch), and a known one as a notification is ignored.
    const unknownPlugin = await ext.request('plugin.noSuchOperation', {});
    assert.deepEqual(unknownPlugin.error, { code: -32601, message: 'Method not found: plugin.noSuchOperation' });
    const before = ext.messages.length;
    ext.notify('plugin.noSuchOperation', {});
    ext.notify('plugin.checkUpdates');
    ext.notify('ping');
    await ext.next((m) => m.method === 'pong');
    assert.deepEqual(ext.messages.slice(before).filter((m) => m.error || m.result), [], 'notifications get no answer');
    // The side panel's server self-update: a native build says how to update instead.
    const selfUpdate = await ext.request('server.selfUpdate');
    assert.equal(selfUpdate.error.code, -32603);
    assert.match(selfUpdate.error.message, /cannot update itself: install the newer version the way you installed this one/);
    await ext.close();
  });

  test('config.* methods validate, persist and announce', async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'conn-config' }).connect();
    const state = await ext.request('config.getState');
    assert.ok(Array.isArray(state.result.browserTools));
    const bad = await ext.request('config.setToolPermission', { plugin: 'browser', tool: 'browser_nope', permission: 'auto' });
    assert.equal(bad.error.code, -32602);
    assert.match(bad.error.message, /Browser tool not found: browser_nope/);
    const badPerm = await ext.request('config.setToolPermission', { plugin: 'browser', tool: 'browser_list_tabs', permission: 'sometimes' });
    assert.match(badPerm.error.message, /Invalid permission/);
    const changed = ext.next((m) => m.method === 'plugins.changed');
    const ok = await ext.request('config.setToolPermission', { plugin: 'browser', tool: 'browser_close_tab', permission: 'off' });
    assert.deepEqual(ok.result, { ok: true });
    await changed;
    const cfg = JSON.parse(readFileSync(join(s.configDir, 'config.json'), 'utf8'));
    assert.equal(cfg.permissions.browser.tools.browser_close_tab, 'off');
    const r = await s.callTool('browser_close_tab', { tabId: 3 });
    assert.match(r.body.content[0].text, /is currently disabled/);
    const all = await ext.request('config.setAllToolsPermission', { plugin: 'browser', permission: 'auto' });
    assert.deepEqual(all.result, { ok: true });
    const skip = await ext.request('config.setSkipPermissions', { skipPermissions: 'yes' });
    assert.equal(skip.error.code, -32602);
    await ext.close();
  });
});

describe('dispatch timing (test knobs, no long sleeps)', () => {
  let s;
  before(async () => {
    s = await startServer({ config: browserAuto, env: { OPENTABS_DISPATCH_TIMEOUT_MS: '400', OPENTABS_DISPATCH_CAP_MS: '3000' } });
  });
  after(async () => {
    await s.stop();
  });

  test('a request nobody answers times out with the original wording', async () => {
    const ext = await new ExtensionClient(s).connect();
    ext.on('browser.focusTab', () => undefined);
    const r = await s.callTool('browser_focus_tab', { tabId: 5 });
    assert.match(r.body.content[0].text, /Dispatch browser.focusTab timed out after 400ms/);
    await ext.close();
  });

  test('a late or duplicate reply is ignored and the server keeps serving', async () => {
    const ext = await new ExtensionClient(s).connect();
    let dispatched;
    ext.on('browser.focusTab', (p) => {
      dispatched = p.__opentabs_dispatchId;
      return undefined;
    });
    await s.callTool('browser_focus_tab', { tabId: 5 });
    ext.send({ jsonrpc: '2.0', id: dispatched, result: { late: true } });
    ext.send({ jsonrpc: '2.0', id: dispatched, result: { late: true } });
    ext.on('browser.getTabInfo', () => ({ id: 5 }));
    const r = await s.callTool('browser_get_tab_info', { tabId: 5 });
    assert.equal(r.status, 200);
    await ext.close();
  });
});

describe('confirmation flow (ask)', () => {
  let s;
  before(async () => {
    s = await startServer({ config: { permissions: { browser: { permission: 'ask' } } } });
  });
  after(async () => {
    await s.stop();
  });

  test('allow lets the call through; deny gives the denial text; always-allow persists auto', async () => {
    const ext = await new ExtensionClient(s).connect();
    ext.on('browser.getTabInfo', () => ({ id: 1, title: 'ok' }));
    let pending = s.callTool('browser_get_tab_info', { tabId: 1 });
    let req = await ext.next((m) => m.method === 'confirmation.request');
    assert.equal(req.params.plugin, 'browser');
    assert.equal(req.params.tool, 'browser_get_tab_info');
    assert.deepEqual(req.params.params, { tabId: 1 });
    ext.notify('confirmation.response', { id: req.params.id, decision: 'allow' });
    assert.equal((await pending).status, 200);

    pending = s.callTool('browser_get_tab_info', { tabId: 1 });
    req = await ext.next((m) => m.method === 'confirmation.request');
    ext.notify('confirmation.response', { id: req.params.id, decision: 'deny' });
    const denied = await pending;
    assert.equal(denied.body.content[0].text, 'Tool browser_get_tab_info was denied by the user.');

    pending = s.callTool('browser_get_tab_info', { tabId: 1 });
    req = await ext.next((m) => m.method === 'confirmation.request');
    ext.notify('confirmation.response', { id: req.params.id, decision: 'allow', alwaysAllow: true });
    assert.equal((await pending).status, 200);
    const cfg = JSON.parse(readFileSync(join(s.configDir, 'config.json'), 'utf8'));
    assert.equal(cfg.permissions.browser.tools.browser_get_tab_info, 'auto');
    // Now it runs without asking.
    assert.equal((await s.callTool('browser_get_tab_info', { tabId: 1 })).status, 200);
    await ext.close();
  });

  test('a waiting call fails when the last connection goes away', async () => {
    const ext = await new ExtensionClient(s).connect();
    const pending = s.callTool('browser_focus_tab', { tabId: 1 });
    await ext.next((m) => m.method === 'confirmation.request');
    ext.terminate();
    const r = await pending;
    assert.match(r.body.content[0].text, /requires approval but the extension is not connected/);
  });
});
