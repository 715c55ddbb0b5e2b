// Validation of the plugin objects the server sends in `sync.full` / `plugin.update` (protocol
// §3.6) and derivation of the per-tab `pluginConfig` (§4.5).  Pure functions: the background
// stores only what passes here, so nothing unchecked reaches chrome.scripting.

import { PERMISSIONS, isSafePluginName } from './constants.js';
import { normalisedHost } from './url-match.js';

const ADAPTER_FILE_RE = /^adapters\/[a-z0-9-]+-[0-9a-f]{8}\.js$/;
const PRESCRIPT_FILE_RE = /^adapters\/[a-z0-9-]+-prescript-[0-9a-f]{8}\.js$/;
const HASH_RE = /^[0-9a-f]{64}$/;

const str = (v, fallback) => (typeof v === 'string' ? v : fallback);
const strArray = (v) => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);
const permission = (v) => (PERMISSIONS.includes(v) ? v : 'off');
const plainObject = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? v : undefined);

function normaliseTool(t) {
  if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') return null;
  return {
    name: t.name,
    displayName: str(t.displayName, t.name),
    description: t.description,
    summary: str(t.summary, undefined),
    icon: str(t.icon, 'wrench'),
    iconSvg: str(t.iconSvg, undefined),
    group: str(t.group, undefined),
    permission: permission(t.permission),
  };
}

// Returns a normalised plugin record or null when the payload must be ignored (bad or reserved
// name).  File names are only kept when they have the exact shape the server writes, so a
// hostile payload cannot make the extension inject arbitrary extension files.
export function normalisePlugin(p) {
  if (!p || typeof p !== 'object' || !isSafePluginName(p.name)) return null;
  const adapterFile = ADAPTER_FILE_RE.test(str(p.adapterFile, '')) ? p.adapterFile : undefined;
  const preScriptFile = PRESCRIPT_FILE_RE.test(str(p.preScriptFile, '')) ? p.preScriptFile : undefined;
  return {
    name: p.name,
    version: str(p.version, '0.0.0'),
    displayName: str(p.displayName, p.name),
    description: str(p.description, undefined),
    urlPatterns: strArray(p.urlPatterns),
    excludePatterns: strArray(p.excludePatterns),
    homepage: str(p.homepage, undefined),
    npmPackageName: str(p.npmPackageName, undefined),
    permission: permission(p.permission),
    reviewed: p.reviewed === true,
    iconSvg: str(p.iconSvg, undefined),
    iconDarkSvg: str(p.iconDarkSvg, undefined),
    iconInactiveSvg: str(p.iconInactiveSvg, undefined),
    iconDarkInactiveSvg: str(p.iconDarkInactiveSvg, undefined),
    instanceMap: plainObject(p.instanceMap),
    hasPreScript: p.hasPreScript === true,
    tools: (Array.isArray(p.tools) ? p.tools : []).map(normaliseTool).filter(Boolean),
    source: str(p.source, undefined),
    sdkVersion: str(p.sdkVersion, undefined),
    update: plainObject(p.update),
    adapterFile,
    adapterHash: HASH_RE.test(str(p.adapterHash, '')) ? p.adapterHash : undefined,
    configSchema: plainObject(p.configSchema),
    resolvedSettings: plainObject(p.resolvedSettings),
    preScriptFile,
    preScriptHash: str(p.preScriptHash, undefined),
  };
}

// The settings object a plugin sees as `__openTabs.pluginConfig` in one tab: every url-type map
// `{instance: url}` is replaced by the URL of the instance whose host equals the tab's host
// (or "" when none does); other values pass through.
export function pluginConfigForTab(plugin, tabUrl) {
  const settings = plugin.resolvedSettings ?? {};
  const schema = plugin.configSchema ?? {};
  const tabHost = normalisedHost(tabUrl);
  const out = {};
  for (const [key, value] of Object.entries(settings)) {
    const isUrlMap = schema[key]?.type === 'url' || (plainObject(value) !== undefined);
    if (isUrlMap && plainObject(value)) {
      const match = Object.values(value).find((u) => typeof u === 'string' && normalisedHost(u) === tabHost);
      out[key] = match ?? '';
    } else {
      out[key] = value;
    }
  }
  return out;
}

// The instance name whose URL host equals the tab's host, or undefined.
export function instanceForTab(plugin, tabUrl) {
  const tabHost = normalisedHost(tabUrl);
  for (const [name, pattern] of Object.entries(plugin.instanceMap ?? {})) {
    const m = /^\*:\/\/([^/]+)\//.exec(String(pattern));
    if (m && normalisedHost(`http://${m[1]}/`) === tabHost) return name;
  }
  return undefined;
}
