// Unit tests of the extension's shared modules (extension/src/shared/*): URL matching, plugin
// payload validation and per-tab pluginConfig, the inbound allow-list, the per-method rate
// limiter and tab ranking.  They run in Node, without Chromium; the same files run unchanged
// in the extension.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { SOURCE_DIR } from './support.mjs';

const shared = (file) => import(pathToFileURL(path.join(SOURCE_DIR, 'extension/src/shared', file)).href);
const { urlMatchesPattern, urlMatchesPlugin, normalisedHost } = await shared('url-match.js');
const { normalisePlugin, pluginConfigForTab, instanceForTab } = await shared('plugin-payload.js');
const { isAllowedInbound, BROWSER_METHODS, ALLOWED_INBOUND_METHODS } = await shared('allowed-methods.js');
const { RateLimiter } = await shared('rate-limiter.js');
const { rankTabs } = await shared('tab-ranking.js');

test('match patterns: scheme, host wildcard, port and path rules of §4.4', () => {
  assert.equal(urlMatchesPattern('http://localhost:9876/', 'http://localhost/*'), true, 'no port in pattern matches any port');
  assert.equal(urlMatchesPattern('http://localhost:9876/', 'http://localhost:9877/*'), false);
  assert.equal(urlMatchesPattern('http://localhost:9876/a', 'http://localhost:9876/*'), true);
  assert.equal(urlMatchesPattern('https://app.example.com/x', '*://*.example.com/*'), true);
  assert.equal(urlMatchesPattern('https://example.com/x', '*://*.example.com/*'), true, '*.host also matches host');
  assert.equal(urlMatchesPattern('https://badexample.com/x', '*://*.example.com/*'), false);
  assert.equal(urlMatchesPattern('ftp://example.com/x', '*://example.com/*'), false, '* scheme is http/https only');
  assert.equal(urlMatchesPattern('http://example.com/x', 'https://example.com/*'), false);
  assert.equal(urlMatchesPattern('https://example.com/api/v1', 'https://example.com/api/*'), true);
  assert.equal(urlMatchesPattern('https://example.com/web', 'https://example.com/api/*'), false);
  assert.equal(urlMatchesPattern('https://example.com/', '<all_urls>'), false);
  assert.equal(urlMatchesPattern('not a url', 'http://localhost/*'), false);
});

test('include and exclude patterns together', () => {
  const include = ['http://localhost/*'];
  const exclude = ['http://localhost/no-plugin*'];
  assert.equal(urlMatchesPlugin('http://localhost:5000/', include, exclude), true);
  assert.equal(urlMatchesPlugin('http://localhost:5000/no-plugin', include, exclude), false);
  assert.equal(urlMatchesPlugin('http://127.0.0.1:5000/', include, exclude), false);
  assert.equal(normalisedHost('http://127.0.0.1:5000/x'), 'localhost:5000');
});

test('plugin payloads: names, defaults and file names are validated', () => {
  assert.equal(normalisePlugin({ name: 'browser', tools: [] }), null, 'reserved name');
  assert.equal(normalisePlugin({ name: '../evil' }), null, 'path in name');
  const p = normalisePlugin({
    name: 'fixture-notes', permission: 'sometimes', urlPatterns: ['http://localhost/*', 7],
    adapterFile: '../../manifest.json', adapterHash: 'zz',
    tools: [{ name: 'echo', description: 'Echo' }, { name: 'broken' }],
  });
  assert.equal(p.version, '0.0.0');
  assert.equal(p.displayName, 'fixture-notes');
  assert.equal(p.permission, 'off', 'invalid permission becomes off');
  assert.deepEqual(p.urlPatterns, ['http://localhost/*']);
  assert.equal(p.adapterFile, undefined, 'only adapters/<plugin>-<hash8>.js is accepted');
  assert.equal(p.adapterHash, undefined);
  assert.deepEqual(p.tools.map((t) => [t.name, t.icon]), [['echo', 'wrench']]);
  const ok = normalisePlugin({ name: 'fixture-notes', adapterFile: 'adapters/fixture-notes-0a1b2c3d.js', adapterHash: 'a'.repeat(64) });
  assert.equal(ok.adapterFile, 'adapters/fixture-notes-0a1b2c3d.js');
});

test('pluginConfig picks the url instance whose host is the tab host', () => {
  const plugin = normalisePlugin({
    name: 'fixture-tracker',
    configSchema: { instanceUrl: { type: 'url' }, teamName: { type: 'string' } },
    resolvedSettings: { instanceUrl: { alpha: 'http://localhost:4001', beta: 'http://localhost:4002/' }, teamName: 'core' },
    instanceMap: { alpha: '*://localhost:4001/*', beta: '*://localhost:4002/*' },
  });
  assert.deepEqual(pluginConfigForTab(plugin, 'http://localhost:4002/issues'), { instanceUrl: 'http://localhost:4002/', teamName: 'core' });
  assert.deepEqual(pluginConfigForTab(plugin, 'http://127.0.0.1:4001/'), { instanceUrl: 'http://localhost:4001', teamName: 'core' });
  assert.deepEqual(pluginConfigForTab(plugin, 'http://localhost:4999/'), { instanceUrl: '', teamName: 'core' });
  assert.equal(instanceForTab(plugin, 'http://localhost:4001/x'), 'alpha');
});

test('inbound allow-list: the browser methods, notifications, responses; others dropped', () => {
  assert.ok(BROWSER_METHODS.length >= 67, 'the 67 methods of protocol §5 (plus opentabs additions)');
  for (const m of ['browser.listTabs', 'browser.executeScript', 'browser.showNotification', 'browser.clearSiteData']) {
    assert.ok(BROWSER_METHODS.includes(m), m);
  }
  for (const m of ['sync.full', 'tool.dispatch', 'confirmation.request', 'plugins.changed', 'extension.getTabState', 'pong']) {
    assert.ok(ALLOWED_INBOUND_METHODS.has(m), m);
  }
  assert.equal(isAllowedInbound({ jsonrpc: '2.0', method: 'config.setToolPermission', id: 1 }), false);
  assert.equal(isAllowedInbound({ jsonrpc: '2.0', method: 'tab.syncAll' }), false);
  assert.equal(isAllowedInbound({ jsonrpc: '2.0', result: {}, id: 4 }), true);
  assert.equal(isAllowedInbound([]), false);
});

test('rate limiter: per-method 1 s sliding window with the §3.10 limits', () => {
  const limiter = new RateLimiter();
  for (let i = 0; i < 2; i += 1) assert.equal(limiter.allow('browser.screenshotTab', 1000), true);
  assert.equal(limiter.allow('browser.screenshotTab', 1500), false);
  assert.equal(limiter.refusal('browser.screenshotTab', 1500),
    'Rate limited: browser.screenshotTab (at most 2 calls per second; retry in 500 ms)');
  assert.equal(limiter.allow('browser.screenshotTab', 2001), true, 'window slid past the first calls');
  for (let i = 0; i < 30; i += 1) assert.equal(limiter.allow('tool.dispatch', 5000), true);
  assert.equal(limiter.allow('tool.dispatch', 5999), false);
  for (let i = 0; i < 20; i += 1) assert.equal(limiter.allow('browser.listTabs', 5000), true);
  assert.equal(limiter.allow('browser.listTabs', 5000), false);
  for (let i = 0; i < 100; i += 1) assert.equal(limiter.allow('sync.full', 5000), true, 'exempt');
});

test('tab ranking prefers the active tab of the focused window', () => {
  const tabs = [
    { id: 1, active: false, windowId: 9 }, { id: 2, active: true, windowId: 8 },
    { id: 3, active: false, windowId: 8 }, { id: 4, active: true, windowId: 9 },
  ];
  assert.deepEqual(rankTabs(tabs, 8).map((t) => t.id), [2, 4, 3, 1]);
  assert.deepEqual(rankTabs(tabs, 9).map((t) => t.id), [4, 2, 1, 3]);
});

test('manifest: MV3, fixed key, the permissions the protocol core uses', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(SOURCE_DIR, 'extension/manifest.json'), 'utf8'));
  assert.equal(manifest.manifest_version, 3);
  assert.match(manifest.key, /^MIIB/);
  for (const p of ['alarms', 'offscreen', 'scripting', 'sidePanel', 'storage', 'tabs']) assert.ok(manifest.permissions.includes(p), p);
  assert.deepEqual(manifest.host_permissions, ['<all_urls>'], 'adapters are injected into any http(s) site a plugin names');
  assert.equal(manifest.background.type, 'module');
  for (const file of [manifest.background.service_worker, manifest.side_panel.default_path, 'offscreen/offscreen.html']) {
    assert.ok(fs.existsSync(path.join(SOURCE_DIR, 'extension', file)), file);
  }
});

test('pre-script match patterns drop the port Chrome rejects for content scripts', async () => {
  const { contentScriptPattern } = await import(pathToFileURL(path.join(SOURCE_DIR, 'extension/src/background/pre-scripts.js')).href);
  assert.equal(contentScriptPattern('*://localhost:4001/*'), '*://localhost/*');
  assert.equal(contentScriptPattern('https://app.example.com/*'), 'https://app.example.com/*');
  assert.equal(contentScriptPattern('http://[::1]:8080/a/*'), 'http://[::1]/a/*');
});
