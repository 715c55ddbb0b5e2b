// Actions the side panel asks the background to perform (`sp:*` runtime messages).  The panel
// never talks to the socket itself: permission and settings changes, plugin search / install /
// update / remove and confirmation answers all become server requests or notifications here.

import { PERMISSIONS } from '../shared/constants.js';
import { store, saveConfirmations, dismissNotice } from './store.js';
import { notifyServer, requestServer, forceReconnect } from './server-link.js';
import { tabsForPlugin } from './injection.js';

const checkPermission = (p) => {
  if (!PERMISSIONS.includes(p)) throw new Error(`Invalid permission: ${p}`);
  return p;
};

// The plugin as the server last described it: plugins.changed (after every permission
// change) refreshes serverState, while store.plugins only changes with sync.full.
const currentPlugin = (plugin) => {
  const listed = store.serverState?.plugins;
  const p = (Array.isArray(listed) ? listed.find((x) => x?.name === plugin) : undefined) ?? store.plugins.get(plugin);
  return p ? { displayName: p.displayName ?? p.name, version: p.version, reviewed: p.reviewed === true } : null;
};
const unreviewed = (plugin) => {
  const p = currentPlugin(plugin);
  return p && !p.reviewed ? p : null;
};

// Consent (issue 13 item 9): a plugin that has not been reviewed is enabled only through the
// panel's confirmation, which names the plugin, its version and what it can reach.  Only an
// accepted confirmation sends reviewedVersion (the server records it as reviewed); every other
// change leaves the review state alone, and turning on an unreviewed plugin without it is
// refused here, whichever page sent the message.
const actions = {
  'sp:setToolPermission': ({ plugin, tool, permission }) => {
    checkPermission(permission);
    const p = unreviewed(plugin);
    if (p && permission !== 'off') throw new Error(`${p.displayName} v${p.version} has not been reviewed: enable the plugin first (All tools) and accept its confirmation`);
    return requestServer('config.setToolPermission', { plugin, tool, permission });
  },

  // `reviewedVersion` only from the accepted confirmation: the version the user saw, which
  // must still be the one installed.
  'sp:setPluginPermission': ({ plugin, permission, reviewedVersion }) => {
    const params = { plugin, permission: checkPermission(permission) };
    const p = currentPlugin(plugin);
    if (reviewedVersion !== undefined) {
      if (!p) throw new Error(`Unknown plugin: ${plugin}`);
      if (reviewedVersion !== p.version) throw new Error(`${p.displayName} is now v${p.version}, not v${reviewedVersion}: review it again`);
      params.reviewedVersion = p.version;
    } else if (unreviewed(plugin) && permission !== 'off') {
      throw new Error(`${p.displayName} v${p.version} has not been reviewed: enabling it needs its confirmation in the side panel`);
    }
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

  'sp:dismissNotice': async ({ id }) => { await dismissNotice(id); return { ok: true }; },

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
