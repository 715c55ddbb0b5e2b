// Actions the side panel asks the background to perform (`sp:*` runtime messages).  The panel
// never talks to the socket itself: permission and settings changes, plugin search / install /
// update / remove and confirmation answers all become server requests or notifications here.

import { PERMISSIONS } from '../shared/constants.js';
import { store, saveConfirmations } from './store.js';
import { notifyServer, requestServer, forceReconnect } from './server-link.js';
import { tabsForPlugin } from './injection.js';

const checkPermission = (p) => {
  if (!PERMISSIONS.includes(p)) throw new Error(`Invalid permission: ${p}`);
  return p;
};

const actions = {
  'sp:setToolPermission': ({ plugin, tool, permission }) =>
    requestServer('config.setToolPermission', { plugin, tool, permission: checkPermission(permission) }),

  'sp:setPluginPermission': ({ plugin, permission }) => {
    const params = { plugin, permission: checkPermission(permission) };
    const version = store.plugins.get(plugin)?.version;
    if (plugin !== 'browser' && version) params.reviewedVersion = version;
    return requestServer('config.setPluginPermission', params);
  },

  'sp:setPluginSettings': ({ plugin, settings }) => requestServer('config.setPluginSettings', { plugin, settings }),
  'sp:search': ({ query }) => requestServer('plugin.search', { query: typeof query === 'string' ? query : '' }),
  'sp:install': ({ name }) => requestServer('plugin.install', { name }),
  'sp:update': ({ name }) => requestServer('plugin.updateFromRegistry', { name }),
  'sp:remove': ({ name }) => requestServer('plugin.remove', { name }),
  'sp:removeFailed': ({ specifier }) => requestServer('plugin.removeBySpecifier', { specifier }),

  'sp:confirm': async ({ id, decision, alwaysAllow }) => {
    if (decision !== 'allow' && decision !== 'deny') throw new Error('decision must be allow or deny');
    const params = { id, decision };
    if (decision === 'allow' && alwaysAllow === true) params.alwaysAllow = true;
    const sent = await notifyServer('confirmation.response', params);
    store.confirmations = store.confirmations.filter((c) => c.id !== id);
    await saveConfirmations();
    if (!sent) throw new Error('Not connected to the opentabs server');
    return { ok: true };
  },

  'sp:setPort': async ({ port }) => {
    if (port === null || port === '') {
      await chrome.storage.local.remove('serverPort');
    } else {
      const n = Number(port);
      if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error('Port must be an integer from 1 to 65535');
      await chrome.storage.local.set({ serverPort: n });
    }
    await forceReconnect();
    return { ok: true };
  },

  'sp:reconnect': async () => { await forceReconnect(); return { ok: true }; },

  // After opentabs was upgraded: run the extension files now on disk.
  'sp:reloadExtension': async () => {
    setTimeout(() => chrome.runtime.reload(), 100); // let the answer reach the panel first
    return { ok: true };
  },

  // The user asked to see the plugin's site (a click, so taking focus is wanted): an open tab
  // of the plugin (a ready one first) is brought forward; otherwise its homepage opens.
  'sp:openPluginTab': async ({ plugin }) => {
    const p = store.plugins.get(plugin);
    if (!p) throw new Error(`Unknown plugin: ${plugin}`);
    const reported = store.tabStates[plugin]?.tabs ?? [];
    const open = await tabsForPlugin(p);
    const ready = new Set(reported.filter((t) => t.ready).map((t) => t.tabId));
    const best = open.find((t) => ready.has(t.id)) ?? open[0];
    if (best) {
      await chrome.tabs.update(best.id, { active: true });
      await chrome.windows.update(best.windowId, { focused: true }).catch(() => {});
      return { ok: true, tabId: best.id, opened: false };
    }
    if (!p.homepage || !/^https?:/.test(p.homepage)) throw new Error('No tab of this plugin is open and it has no homepage');
    const tab = await chrome.tabs.create({ url: p.homepage });
    return { ok: true, tabId: tab.id, opened: true };
  },
};

export async function handleSidePanelAction(msg) {
  await store.ready;
  const action = actions[msg.type];
  if (!action) throw new Error(`Unknown side panel action: ${msg.type}`);
  return action(msg.payload ?? {});
}
