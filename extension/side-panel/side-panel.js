// OpenTabs side panel.  Renders from chrome.storage.session (written by the background, see
// src/background/store.js) and re-renders on chrome.storage.onChanged; every action goes to the
// background as an `sp:*` runtime message.  All server-provided text is inserted with
// textContent / attributes only, and icons are shown through <img> data URLs, so nothing the
// server or a plugin sends can run script in this page.

import { renderWebmcpCard } from '../src/webmcp/side-panel-card.js';

const PERMISSIONS = ['off', 'ask', 'auto'];
const SESSION_KEYS = ['connection', 'serverState', 'tabStates', 'confirmations', 'notices', 'activity', 'runningHash'];
const CONNECTION_LABELS = {
  connected: 'Connected', disconnected: 'Disconnected', connecting: 'Connecting…', auth_failed: 'Authentication failed',
  impostor: 'Not opentabs on this port',
};

let state = { connection: null, serverState: null, tabStates: {}, confirmations: [], notices: [], activity: [] };
// Which plugin cards are open; kept in chrome.storage.local so closing the panel keeps it.
const expanded = new Set();
const saveExpanded = () => chrome.storage.local.set({ expandedPlugins: [...expanded] }).catch(() => {});

const $ = (id) => document.getElementById(id);

// Small DOM builder: el('div', {class: 'x', onclick}, child, 'text', …).
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'class') node.className = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function toast(text) {
  const t = $('toast');
  t.textContent = text;
  t.classList.add('show');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove('show'), 4000);
}

async function act(type, payload) {
  const reply = await chrome.runtime.sendMessage({ target: 'background', type, payload });
  if (reply?.error) { toast(reply.error); throw new Error(reply.error); }
  // The server applied a config change but could not write config.json yet (another program
  // holds its lock): say so rather than let "saved" be assumed.
  if (reply?.saved === false && typeof reply.message === 'string') toast(`Applied, not saved yet: ${reply.message}`);
  return reply;
}

function iconImg(svg) {
  if (typeof svg !== 'string' || !svg.trim().startsWith('<svg')) return null;
  return el('img', { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, alt: '' });
}

function isDark() { return document.documentElement.dataset.theme === 'dark'; }

function matchesFilter(...texts) {
  const q = $('filter').value.trim().toLowerCase();
  return !q || texts.some((t) => typeof t === 'string' && t.toLowerCase().includes(q));
}

// `locked`: levels that cannot be chosen here (shown disabled, with `lockedTitle` as the reason).
function permissionControl(testId, current, onChange, { locked = [], lockedTitle } = {}) {
  return el('span', { class: 'seg', role: 'group', 'data-testid': testId },
    PERMISSIONS.map((level) => el('button', {
      type: 'button', class: level === current ? 'on' : '', 'data-testid': `${testId}-${level}`,
      'aria-pressed': level === current ? 'true' : 'false',
      disabled: locked.includes(level) && level !== current, title: locked.includes(level) ? lockedTitle : null,
      onclick: () => { if (level !== current) onChange(level).catch(() => {}); },
    }, level)));
}

// What a plugin's code can reach, from its URL match patterns: the hosts (or "every site").
function hostsOf(patterns) {
  const hosts = new Set();
  for (const pattern of patterns) {
    if (pattern === '<all_urls>') { hosts.add('every site'); continue; }
    const host = /^[a-z*]+:\/\/([^/]*)/i.exec(pattern)?.[1];
    hosts.add(host === '*' ? 'every site' : host || pattern);
  }
  return [...hosts];
}

// Consent before an unreviewed plugin runs (issue 13 item 9): names the plugin, its version and
// what it can reach.  Only "Enable" marks it reviewed (the background sends the version shown
// here as reviewedVersion); Cancel, Escape or closing the dialog leave it off and unreviewed.
function openConsent(plugin, level) {
  const form = $('consent-form');
  const patterns = (plugin.urlPatterns ?? []).filter((p) => typeof p === 'string');
  const excluded = (plugin.excludePatterns ?? []).filter((p) => typeof p === 'string');
  const toolCount = (plugin.tools ?? []).length;
  const SHOWN = 20;
  const error = el('p', { class: 'error small', 'data-testid': 'consent-error' });
  const close = () => $('consent-dialog').close();
  form.replaceChildren(
    el('h3', {}, `Enable ${plugin.displayName ?? plugin.name}?`),
    el('p', { 'data-testid': 'consent-plugin' }, el('strong', {}, plugin.name), ` v${plugin.version}`,
      plugin.npmPackageName && plugin.npmPackageName !== plugin.name ? ` (${plugin.npmPackageName})` : '',
      plugin.source ? ` · ${plugin.source}` : ''),
    el('p', { class: 'small' }, 'This plugin has not been reviewed. Enabling it lets its code run inside your logged-in tabs on these sites and act there for your AI agents',
      level === 'auto' ? ', without asking you first.' : ', each call after your approval.'),
    el('div', { class: 'field' }, el('label', {}, 'Sites it can reach'),
      el('div', { 'data-testid': 'consent-hosts' }, patterns.length ? hostsOf(patterns).join(', ') : 'none (no URL patterns)'),
      el('ul', { class: 'small', 'data-testid': 'consent-patterns' },
        patterns.slice(0, SHOWN).map((p) => el('li', {}, el('code', {}, p))),
        patterns.length > SHOWN ? el('li', { class: 'muted' }, `and ${patterns.length - SHOWN} more`) : null),
      excluded.length ? el('div', { class: 'muted small' }, `Except: ${excluded.slice(0, SHOWN).join(', ')}`) : null),
    el('p', { 'data-testid': 'consent-tools' }, `${toolCount} tool${toolCount === 1 ? '' : 's'}, set to “${level}”`,
      plugin.hasPreScript ? '; it also runs a script on these sites before their pages load' : ''),
    el('p', { class: 'muted small' }, 'To read its code first, ask your agent to run plugin_inspect for this plugin.'),
    error,
    el('div', { class: 'actions' },
      el('button', { type: 'button', class: 'primary', 'data-testid': 'consent-accept', onclick: async (ev) => {
        ev.target.disabled = true;
        try {
          await act('sp:setPluginPermission', { plugin: plugin.name, permission: level, reviewedVersion: plugin.version });
          close();
        } catch (err) { error.textContent = err.message; ev.target.disabled = false; }
      } }, `Enable v${plugin.version}`),
      el('button', { type: 'button', 'data-testid': 'consent-cancel', onclick: close }, 'Cancel')));
  $('consent-dialog').showModal();
}

function groupBy(items) {
  const groups = new Map();
  for (const item of items) {
    const key = typeof item.group === 'string' && item.group ? item.group : '';
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(item);
  }
  return [...groups.entries()].sort((a, b) => (a[0] === '' ? -1 : b[0] === '' ? 1 : a[0].localeCompare(b[0])));
}

// The server's state only while connected: a plugin list, port and switches from a server
// that is gone would show what may no longer be true and offer switches that change nothing.
function liveServerState() {
  return state.connection?.state === 'connected' ? state.serverState : null;
}

function renderConnection() {
  const c = state.connection ?? { state: 'connecting' };
  const pill = $('connection');
  pill.className = `pill ${c.state}`;
  pill.dataset.state = c.state;
  pill.textContent = CONNECTION_LABELS[c.state] ?? c.state;
  const detail = c.state === 'auth_failed'
    ? `${c.detail ? `${c.detail}. ` : ''}Load the extension from the folder \`opentabs start\` prepared (~/.opentabs/extension); if opentabs is not running, stop the program on that port (opentabs doctor names it). Retrying every few seconds.`
    : c.state === 'disconnected'
      // The usual cause is that no server runs: say the command that starts one on this port.
      ? `${c.detail ? `${c.detail}${c.port ? ` (port ${c.port})` : ''}. ` : ''}Is the server running? Start it with: opentabs start --port ${c.port ?? 9515}`
      : c.state === 'impostor'
        ? `${c.detail}. Stop that program, then run: opentabs start --port ${c.port ?? 9515} (opentabs doctor names it).`
        : c.state !== 'connected' && c.detail ? `${c.detail}${c.port ? ` (port ${c.port})` : ''}` : '';
  $('connection-detail').textContent = detail;
  const s = liveServerState();
  const extension = `Extension ${chrome.runtime.getManifest().version}`;
  $('server-info').textContent = s ? `${extension} · server ${s.serverVersion ?? '?'}${c.port ? ` on port ${c.port}` : ''}` : extension;
}

// opentabs rewrites the extension's files when it is upgraded, but Chrome keeps running the
// code it loaded: the server's extensionHash then differs from the one read at load time.
function renderExtensionUpdate() {
  const available = state.serverState?.extensionHash;
  const running = state.runningHash;
  const stale = typeof available === 'string' && typeof running === 'string' && available !== running;
  $('extension-update').replaceChildren(...(stale ? [el('div', { class: 'card notice', 'data-testid': 'extension-update' },
    el('h3', {}, 'Extension update ready'),
    el('p', {}, 'opentabs installed newer extension files. Reload the extension to run them (open tabs keep their pages).'),
    el('div', { class: 'actions' },
      el('button', { type: 'button', class: 'primary', 'data-testid': 'extension-reload', onclick: (ev) => {
        ev.target.disabled = true; ev.target.textContent = 'Reloading…';
        act('sp:reloadExtension').catch(() => { ev.target.disabled = false; ev.target.textContent = 'Reload extension'; });
      } }, 'Reload extension')))] : []));
}

function renderConfirmations() {
  const box = $('confirmations');
  box.replaceChildren(...(state.confirmations ?? []).map((c) => el('div', {
    class: 'card confirm', 'data-testid': 'confirmation', 'data-tool': c.tool, 'data-plugin': c.plugin, 'data-id': c.id,
  },
  el('h3', {}, 'Approve tool call?'),
  el('p', {}, el('strong', {}, c.tool), c.plugin && c.plugin !== 'browser' ? ` from ${c.plugin}` : ' (browser tool)'),
  el('pre', {}, c.params),
  el('div', { class: 'actions' },
    el('button', { type: 'button', class: 'primary', 'data-testid': 'confirm-allow', onclick: () => act('sp:confirm', { id: c.id, decision: 'allow' }) }, 'Allow once'),
    el('button', { type: 'button', 'data-testid': 'confirm-always', onclick: () => act('sp:confirm', { id: c.id, decision: 'allow', alwaysAllow: true }) }, 'Always allow'),
    el('button', { type: 'button', class: 'danger', 'data-testid': 'confirm-deny', onclick: () => act('sp:confirm', { id: c.id, decision: 'deny' }) }, 'Deny')))));
}

// Changes made outside the side panel that the person should know about: "Always allow"
// answered in the agent's own dialog set a tool to auto (said with its undo, back to Ask,
// next to Dismiss); an answer clicked here after the agent's dialog had decided, which
// therefore changed nothing (said with the decision that took effect).
function renderNotices() {
  $('notices').replaceChildren(...(state.notices ?? []).map((n) => (n.kind === 'answerNotUsed' ? renderAnswerNotUsed(n) : el('div', {
    class: 'card notice', 'data-testid': 'notice', 'data-kind': n.kind, 'data-tool': n.tool, 'data-plugin': n.plugin,
  },
  el('h3', {}, `${n.tool} now runs without asking`),
  el('p', {}, n.message || `"Always allow" in the agent's dialog set ${n.tool} to auto.`),
  el('div', { class: 'actions' },
    el('button', { type: 'button', 'data-testid': 'notice-undo', onclick: async () => {
      await act('sp:setToolPermission', { plugin: n.plugin, tool: n.tool, permission: 'ask' });
      await act('sp:dismissNotice', { id: n.id });
    } }, 'Set back to Ask'),
    el('button', { type: 'button', 'data-testid': 'notice-dismiss', onclick: () => act('sp:dismissNotice', { id: n.id }) }, 'Dismiss'))))));
}

function renderAnswerNotUsed(n) {
  return el('div', { class: 'card notice', 'data-testid': 'notice', 'data-kind': n.kind },
    el('h3', {}, 'Your answer was not used'),
    el('p', {}, n.message),
    el('div', { class: 'actions' },
      el('button', { type: 'button', 'data-testid': 'notice-dismiss', onclick: () => act('sp:dismissNotice', { id: n.id }) }, 'Dismiss')));
}

function tabStateOf(plugin) {
  return state.tabStates?.[plugin.name]?.state ?? plugin.tabState ?? 'closed';
}

function renderPlugin(plugin) {
  const tools = (plugin.tools ?? []).filter((t) => matchesFilter(plugin.name, plugin.displayName, t.name, t.displayName, t.description));
  if (tools.length === 0 && !matchesFilter(plugin.name, plugin.displayName)) return null;
  const tabState = tabStateOf(plugin);
  const open = expanded.has(plugin.name) || $('filter').value.trim() !== '';
  // The inactive variants (greyed) when no tab of the plugin is ready, as in OpenTabs.
  const active = tabState === 'ready';
  const icon = iconImg(isDark()
    ? (active ? null : plugin.iconDarkInactiveSvg) ?? plugin.iconDarkSvg ?? (active ? null : plugin.iconInactiveSvg) ?? plugin.iconSvg
    : (active ? null : plugin.iconInactiveSvg) ?? plugin.iconSvg);
  const needsSetup = plugin.configSchema && Object.entries(plugin.configSchema)
    .some(([key, def]) => def?.required && plugin.resolvedSettings?.[key] === undefined);
  return el('div', { class: 'card plugin', 'data-testid': `plugin-${plugin.name}` },
    el('div', { class: 'card-head' },
      icon,
      el('div', { class: 'grow' },
        el('h3', {}, plugin.displayName ?? plugin.name),
        el('span', { class: 'muted small' }, `v${plugin.version}${plugin.source ? ` · ${plugin.source}` : ''}`)),
      needsSetup ? el('span', { class: 'badge unavailable' }, 'needs setup') : null,
      plugin.reviewed ? null : el('span', { class: 'badge unavailable', 'data-testid': `unreviewed-${plugin.name}`,
        title: 'Not reviewed: enabling it asks for your confirmation first' }, 'not reviewed'),
      plugin.update?.latestVersion ? el('span', { class: 'badge update', 'data-testid': `update-badge-${plugin.name}`,
        title: plugin.update.updateCommand ?? '' }, `v${plugin.update.latestVersion} available`) : null,
      el('span', { class: `badge ${tabState}`, 'data-testid': `tab-state-${plugin.name}` }, tabState)),
    el('div', { class: 'row', style: 'margin-top:6px' },
      el('span', { class: 'grow muted' }, 'All tools'),
      permissionControl(`plugin-perm-${plugin.name}`, plugin.permission ?? 'off', async (level) => {
        if (level !== 'off' && !plugin.reviewed) openConsent(plugin, level);
        else await act('sp:setPluginPermission', { plugin: plugin.name, permission: level });
      })),
    el('details', { open, ontoggle: (e) => {
      if ($('filter').value.trim() !== '') return; // opened by the filter, not by the user
      const had = expanded.has(plugin.name);
      if (e.target.open) expanded.add(plugin.name); else expanded.delete(plugin.name);
      if (had !== e.target.open) saveExpanded();
    } },
      el('summary', {}, `${(plugin.tools ?? []).length} tools`),
      groupBy(tools).map(([group, items]) => [
        group ? el('div', { class: 'group-title' }, group) : null,
        items.map((t) => el('div', { class: 'tool', 'data-testid': `tool-${plugin.name}-${t.name}` },
          el('div', { class: 'name' }, t.displayName ?? t.name, el('small', {}, t.summary ?? t.description ?? '')),
          permissionControl(`perm-${plugin.name}-${t.name}`, t.permission ?? 'off',
            (level) => act('sp:setToolPermission', { plugin: plugin.name, tool: t.name, permission: level }),
            plugin.reviewed ? {} : { locked: ['ask', 'auto'], lockedTitle: 'Enable the plugin first (All tools): it has not been reviewed' }))),
      ])),
    el('div', { class: 'actions' },
      plugin.update?.latestVersion ? el('button', { type: 'button', class: 'primary', 'data-testid': `update-${plugin.name}`, onclick: async (ev) => {
        ev.target.disabled = true; ev.target.textContent = 'Updating…';
        try { await act('sp:update', { name: plugin.name }); } catch { ev.target.disabled = false; ev.target.textContent = `Update to v${plugin.update.latestVersion}`; }
      } }, `Update to v${plugin.update.latestVersion}`) : null,
      plugin.configSchema ? el('button', { type: 'button', 'data-testid': `settings-${plugin.name}`, onclick: () => openSettings(plugin) }, 'Settings') : null,
      plugin.homepage || (state.tabStates?.[plugin.name]?.tabs ?? []).length
        ? el('button', { type: 'button', 'data-testid': `open-${plugin.name}`, onclick: () => act('sp:openPluginTab', { plugin: plugin.name }) }, 'Open') : null,
      removeButton(() => act('sp:remove', { name: plugin.name }), `remove-${plugin.name}`, `plugin:${plugin.name}`)));
}

// Two-step remove: the first click arms the button, the second (within 4 s) removes.  The armed
// state is kept by key outside the DOM because storage updates re-render the cards.
const armedUntil = new Map();
function removeButton(onConfirm, testId, key = testId) {
  const armed = (armedUntil.get(key) ?? 0) > Date.now();
  const button = el('button', { type: 'button', class: 'danger', 'data-testid': testId, 'data-armed': armed ? '1' : null },
    armed ? 'Click again to remove' : 'Remove');
  button.addEventListener('click', () => {
    if ((armedUntil.get(key) ?? 0) > Date.now()) {
      armedUntil.delete(key);
      button.disabled = true;
      button.textContent = 'Removing…';
      onConfirm().catch(() => { button.disabled = false; button.textContent = 'Remove'; });
      return;
    }
    armedUntil.set(key, Date.now() + 4000);
    button.dataset.armed = '1';
    button.textContent = 'Click again to remove';
    setTimeout(() => { if (!armedUntil.has(key)) return; armedUntil.delete(key); render(); }, 4100);
  });
  return button;
}

function renderPlugins() {
  const plugins = [...(liveServerState()?.plugins ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const cards = plugins.map(renderPlugin).filter(Boolean);
  $('plugins').replaceChildren(el('h2', {}, 'Plugins'),
    ...(cards.length ? cards : [el('div', { class: 'card empty', 'data-testid': 'plugins-empty' },
      !liveServerState() ? (state.connection?.state === 'connected' ? 'Waiting for the server…' : 'Not connected to the opentabs server: the plugins appear once it is back.')
        : plugins.length ? `No plugins or tools match “${$('filter').value.trim()}”.`
          : 'No plugins installed. Search npm below or add a local plugin with the CLI.')]));
}

function renderFailed() {
  const failed = liveServerState()?.failedPlugins ?? [];
  $('failed').replaceChildren(...failed.map((f) => el('div', { class: 'card failed', 'data-testid': 'failed-plugin' },
    el('h3', {}, 'Plugin failed to load'),
    el('p', { class: 'small' }, el('code', {}, f.specifier)),
    el('p', { class: 'error small' }, f.error),
    el('div', { class: 'actions' }, removeButton(() => act('sp:removeFailed', { specifier: f.specifier }), 'remove-failed', `failed:${f.specifier}`)))));
}

function renderBrowserTools() {
  const tools = (liveServerState()?.browserTools ?? []).filter((t) => matchesFilter('browser', t.name, t.description, t.group));
  if (!liveServerState()) { $('browser-tools').replaceChildren(); return; }
  const open = expanded.has('browser') || $('filter').value.trim() !== '';
  $('browser-tools').replaceChildren(el('div', { class: 'card', 'data-testid': 'browser-tools' },
    el('div', { class: 'card-head' }, el('div', { class: 'grow' }, el('h3', {}, 'Browser tools'),
      el('span', { class: 'muted small' }, `${(liveServerState().browserTools ?? []).length} built-in tools`))),
    el('div', { class: 'row', style: 'margin-top:6px' }, el('span', { class: 'grow muted' }, 'All browser tools'),
      permissionControl('plugin-perm-browser', liveServerState().browserPermission ?? 'off',
        (level) => act('sp:setPluginPermission', { plugin: 'browser', permission: level }))),
    el('details', { open, ontoggle: (e) => { if (e.target.open) expanded.add('browser'); else expanded.delete('browser'); } },
      el('summary', {}, 'Tools by group'),
      groupBy(tools).map(([group, items]) => [
        el('div', { class: 'group-title', 'data-testid': 'browser-group' }, group || 'Other'),
        items.map((t) => el('div', { class: 'tool', 'data-testid': `tool-browser-${t.name}` },
          el('div', { class: 'name' }, t.name, el('small', {}, t.summary ?? t.description ?? '')),
          permissionControl(`perm-browser-${t.name}`, t.permission ?? 'off',
            (level) => act('sp:setToolPermission', { plugin: 'browser', tool: t.name, permission: level })))),
      ]))));
}

function renderWebmcpSites() {
  const card = renderWebmcpCard(liveServerState(), { el, act, permissionControl, matchesFilter });
  $('webmcp-sites').replaceChildren(...(card ? [card] : []));
}

function renderActivity() {
  const items = state.activity ?? [];
  $('activity').replaceChildren(...(items.length ? items.map((a) => el('li', { 'data-status': a.status },
    el('span', { class: `status-${a.status}` }, a.status === 'running' ? '●' : a.status === 'success' ? '✓' : '✗'),
    el('span', { class: 'grow' }, `${a.plugin === 'browser' ? '' : `${a.plugin} · `}${a.tool}`),
    el('span', { class: 'muted' }, a.status === 'running' ? 'running' : `${Math.round(a.durationMs ?? 0)} ms`)))
    : [el('li', { class: 'muted' }, 'No tool calls yet.')]));
}

function render() {
  renderConnection();
  renderExtensionUpdate();
  renderConfirmations();
  renderNotices();
  renderPlugins();
  renderFailed();
  renderBrowserTools();
  renderWebmcpSites();
  renderActivity();
}

// Settings dialog generated from the plugin's configSchema.  url fields hold several named
// instances ({name: url}).
function openSettings(plugin) {
  const form = $('settings-form');
  const schema = plugin.configSchema ?? {};
  const values = plugin.resolvedSettings ?? {};
  const readers = [];
  const fields = Object.entries(schema).map(([key, def]) => {
    const label = el('label', { for: `setting-${key}` }, def?.label ?? key, def?.required ? ' *' : '');
    const help = def?.description ? el('div', { class: 'muted small' }, def.description) : null;
    if (def?.type === 'url') {
      const rows = el('div', { 'data-testid': `setting-${key}` });
      const addRow = (name = '', url = '') => {
        const row = el('div', { class: 'row', style: 'margin:4px 0' },
          el('input', { type: 'text', placeholder: 'instance name', value: name, 'data-role': 'name', style: 'width:35%' }),
          el('input', { type: 'url', placeholder: def.placeholder ?? 'https://…', value: url, 'data-role': 'url' }),
          el('button', { type: 'button', onclick: () => row.remove() }, '✕'));
        rows.append(row);
      };
      const current = values[key] && typeof values[key] === 'object' ? values[key] : {};
      for (const [name, url] of Object.entries(current)) addRow(name, url);
      if (Object.keys(current).length === 0) addRow();
      readers.push(() => {
        const map = {};
        for (const row of rows.children) {
          const name = row.querySelector('[data-role=name]').value.trim();
          const url = row.querySelector('[data-role=url]').value.trim();
          if (name && url) map[name] = url;
        }
        return [key, Object.keys(map).length ? map : undefined];
      });
      return el('div', { class: 'field' }, label, help, rows,
        el('button', { type: 'button', onclick: () => addRow() }, 'Add instance'));
    }
    let input;
    if (def?.type === 'boolean') {
      input = el('input', { id: `setting-${key}`, type: 'checkbox', checked: values[key] === true });
      readers.push(() => [key, input.checked]);
    } else if (def?.type === 'select') {
      input = el('select', { id: `setting-${key}` }, el('option', { value: '' }, '—'),
        (def.options ?? []).map((o) => el('option', { value: o, selected: values[key] === o }, o)));
      readers.push(() => [key, input.value || undefined]);
    } else {
      input = el('input', { id: `setting-${key}`, type: def?.type === 'number' ? 'number' : 'text',
        placeholder: def?.placeholder ?? '', value: values[key] ?? '' });
      readers.push(() => [key, input.value === '' ? undefined : def?.type === 'number' ? Number(input.value) : input.value]);
    }
    return el('div', { class: 'field' }, label, help, input);
  });
  const error = el('p', { class: 'error small', 'data-testid': 'settings-error' });
  form.replaceChildren(
    el('h3', {}, `${plugin.displayName ?? plugin.name} settings`),
    ...fields, error,
    el('div', { class: 'actions' },
      el('button', { type: 'button', class: 'primary', 'data-testid': 'settings-save', onclick: async () => {
        const settings = {};
        for (const read of readers) { const [k, v] = read(); if (v !== undefined) settings[k] = v; }
        try {
          await act('sp:setPluginSettings', { plugin: plugin.name, settings });
          $('settings-dialog').close();
        } catch (err) { error.textContent = err.message; }
      } }, 'Save'),
      el('button', { type: 'button', onclick: () => $('settings-dialog').close() }, 'Cancel')));
  $('settings-dialog').showModal();
}

async function applyTheme() {
  const { theme } = await chrome.storage.local.get('theme');
  const prefersDark = window.matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = theme === 'dark' || theme === 'light' ? theme : prefersDark ? 'dark' : 'light';
}

// Where agents' tabs open and what happens to them when the agent ends (browser-commands/client-tabs.js reads it).
async function showAgentTabSettings() {
  const saved = (await chrome.storage.local.get('agentTabs')).agentTabs ?? {};
  $('agent-tabs-place').value = saved.place === 'window' ? 'window' : 'group';
  $('agent-tabs-end').value = ['keep', 'close'].includes(saved.onEnd) ? saved.onEnd : 'ungroup';
}
const saveAgentTabSettings = () => chrome.storage.local.set({ agentTabs: { place: $('agent-tabs-place').value, onEnd: $('agent-tabs-end').value } })
  .then(() => toast('Saved')).catch(() => {});
$('agent-tabs-place').addEventListener('change', saveAgentTabSettings);
$('agent-tabs-end').addEventListener('change', saveAgentTabSettings);

async function load() {
  const saved = await chrome.storage.session.get(SESSION_KEYS);
  state = { ...state, ...saved };
  const { serverPort, expandedPlugins } = await chrome.storage.local.get(['serverPort', 'expandedPlugins']);
  if (serverPort) $('port').value = serverPort;
  await showAgentTabSettings();
  if (Array.isArray(expandedPlugins)) for (const name of expandedPlugins) if (typeof name === 'string') expanded.add(name);
  await applyTheme();
  render();
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'session') {
    let touched = false;
    for (const key of SESSION_KEYS) if (changes[key]) { state[key] = changes[key].newValue; touched = true; }
    if (touched) render();
  } else if (area === 'local' && changes.theme) {
    applyTheme().then(render);
  }
});

$('filter').addEventListener('input', render);
$('theme-toggle').addEventListener('click', async () => {
  await chrome.storage.local.set({ theme: isDark() ? 'light' : 'dark' });
});
$('port-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const value = $('port').value.trim();
  act('sp:setPort', { port: value === '' ? null : value }).then(() => toast('Reconnecting…')).catch(() => {});
});
$('search-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const list = $('search-results');
  list.replaceChildren(el('li', { class: 'muted' }, 'Searching…'));
  try {
    const reply = await act('sp:search', { query: $('search-query').value });
    const results = Array.isArray(reply?.results) ? reply.results : [];
    const installed = new Set((state.serverState?.plugins ?? []).map((p) => p.npmPackageName));
    list.replaceChildren(...(results.length ? results.map((r) => el('li', {},
      el('span', { class: 'grow' }, el('strong', {}, r.displayName ?? r.name), ` ${r.version ?? ''}`, el('br'),
        el('span', { class: 'muted small' }, r.description ?? '')),
      installed.has(r.name) ? el('span', { class: 'muted' }, 'installed')
        : el('button', { type: 'button', onclick: async (ev) => {
          ev.target.disabled = true; ev.target.textContent = 'Installing…';
          try { await act('sp:install', { name: r.name }); ev.target.textContent = 'Installed'; } catch { ev.target.disabled = false; ev.target.textContent = 'Install'; }
        } }, 'Install'))) : [el('li', { class: 'muted' }, 'No plugins found.')]));
  } catch (err) {
    list.replaceChildren(el('li', { class: 'error' }, err.message));
  }
});
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyTheme().then(render));

load();
