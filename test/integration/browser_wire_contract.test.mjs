// The browser.* / extension.* wire contract (extension/PROTOCOL.md), seen from the server:
// a fake extension records the params of every request, and each MCP-level argument shape
// (the OpenTabs shapes and our friendlier ones) must arrive as exactly the documented wire
// params, which the OpenTabs 0.0.115 extension understands.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';

const browserAuto = { permissions: { browser: { permission: 'auto' } } };

// [tool, arguments, method, exact wire params (without __opentabs_dispatchId)]
const cases = [
  // press_key: modifiers are {shift, ctrl, alt, meta} booleans on the wire.
  ['browser_press_key', { tabId: 3, key: 'k', modifiers: { ctrl: true } }, 'browser.pressKey', { tabId: 3, key: 'k', modifiers: { ctrl: true } }],
  ['browser_press_key', { tabId: 3, key: 'a', modifiers: ['Control', 'Shift'] }, 'browser.pressKey', { tabId: 3, key: 'a', modifiers: { ctrl: true, shift: true } }],
  ['browser_press_key', { tabId: 3, key: 'Enter', selector: '#q' }, 'browser.pressKey', { tabId: 3, key: 'Enter', selector: '#q' }],
  // scroll: position is an {x, y} offset.
  ['browser_scroll', { tabId: 3, position: { x: 0, y: 640 } }, 'browser.scroll', { tabId: 3, position: { x: 0, y: 640 } }],
  ['browser_scroll', { tabId: 3, position: 'bottom' }, 'browser.scroll', { tabId: 3, position: { y: 1000000000 } }],
  ['browser_scroll', { tabId: 3, position: 'top' }, 'browser.scroll', { tabId: 3, position: { y: 0 } }],
  // search_history: startTime/endTime are ISO date strings.
  ['browser_search_history', { query: 'x', startTime: '2024-01-01T00:00:00Z' }, 'browser.searchHistory', { query: 'x', startTime: '2024-01-01T00:00:00Z', maxResults: 100 }],
  ['browser_search_history', { query: 'x', startTime: 1704067200000, endTime: 1706745600000 }, 'browser.searchHistory',
    { query: 'x', startTime: '2024-01-01T00:00:00.000Z', endTime: '2024-02-01T00:00:00.000Z', maxResults: 100 }],
  // force_pseudo_state: pseudo-classes carry their colon.
  ['browser_force_pseudo_state', { tabId: 3, selector: '#b', pseudoClasses: [':hover'] }, 'browser.forcePseudoState', { tabId: 3, selector: '#b', pseudoClasses: [':hover'] }],
  ['browser_force_pseudo_state', { tabId: 3, selector: '#b', pseudoClasses: ['hover', 'focus'] }, 'browser.forcePseudoState', { tabId: 3, selector: '#b', pseudoClasses: [':hover', ':focus'] }],
  // throttle_network: OpenTabs presets by name; our fast-3g as explicit values.
  ['browser_throttle_network', { tabId: 3, preset: '3g' }, 'browser.throttleNetwork', { tabId: 3, preset: '3g' }],
  ['browser_throttle_network', { tabId: 3, preset: 'fast-3g' }, 'browser.throttleNetwork', { tabId: 3, latency: 563, downloadThroughput: 180000, uploadThroughput: 84375 }],
  // console logs: level "all" is an OpenTabs level.
  ['browser_get_console_logs', { tabId: 3, level: 'all' }, 'browser.getConsoleLogs', { tabId: 3, level: 'all', clear: false }],
  // extension logs: "all" means no filter and is left out.
  ['extension_get_logs', { level: 'all', source: 'all' }, 'extension.getLogs', { limit: 100 }],
  ['extension_get_logs', { level: 'warn', source: 'background' }, 'extension.getLogs', { level: 'warn', source: 'background', limit: 100 }],
  // limits the OpenTabs catalog allows.
  ['browser_wait_for_element', { tabId: 3, selector: '#late', timeout: 30000 }, 'browser.waitForElement', { tabId: 3, selector: '#late', timeout: 25000, visible: false }],
  ['browser_wait_for_element', { tabId: 3, selector: '#late' }, 'browser.waitForElement', { tabId: 3, selector: '#late', timeout: 10000, visible: false }],
  ['browser_emulate_device', { tabId: 3, width: 400, height: 800, deviceScaleFactor: 0 }, 'browser.emulateDevice', { tabId: 3, width: 400, height: 800, deviceScaleFactor: 0, mobile: false }],
  ['browser_create_window', { width: 120000 }, 'browser.createWindow', { width: 120000, incognito: false, focused: false }],
  // what the OpenTabs server adds.
  ['browser_add_tabs_to_group', { groupId: 2, tabIds: [5, 6] }, 'browser.addTabsToGroup', { groupId: 2, tabIds: [5, 6], tabId: 5 }],
  ['browser_create_tab_group', { tabIds: [7], color: 'blue' }, 'browser.createTabGroup', { tabIds: [7], color: 'blue', tabId: 7 }],
  ['browser_get_tab_content', { tabId: 3 }, 'browser.getTabContent', { tabId: 3, selector: 'body', maxLength: 50000 }],
  ['browser_query_elements', { tabId: 3, selector: 'a' }, 'browser.queryElements',
    { tabId: 3, selector: 'a', limit: 100, attributes: ['id', 'class', 'href', 'src', 'type', 'name', 'value', 'placeholder'] }],
];

describe('browser wire contract (server side)', () => {
  let s;
  let ext;
  before(async () => {
    s = await startServer({ config: browserAuto });
    ext = await new ExtensionClient(s, { connectionId: 'wire' }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
    for (const method of new Set(cases.map((c) => c[2]))) {
      ext.on(method, () => (method === 'extension.getLogs' ? { entries: [], stats: {} } : { ok: true }));
    }
  });
  after(async () => {
    await ext?.close();
    await s?.stop();
  });

  for (const [tool, args, method, expected] of cases) {
    test(`${tool} ${JSON.stringify(args)} → ${method} ${JSON.stringify(expected)}`, async () => {
      const seen = ext.messages.length;
      const r = await s.callTool(tool, args);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const sent = ext.messages.slice(seen).filter((m) => m.method === method);
      assert.equal(sent.length, 1, `one ${method} request`);
      const { __opentabs_dispatchId, ...params } = sent[0].params;
      assert.deepEqual(params, expected);
    });
  }
});
