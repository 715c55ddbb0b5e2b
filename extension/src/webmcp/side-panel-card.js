// The side panel's WebMCP card: every site whose open pages publish WebMCP tools
// (serverState.webmcpSites from sync.full / plugins.changed), with the site's permission
// (off by default, like every tool; key `webmcp:<site>`), its tabs and a per-tool override.
// Page-provided names are inserted as text only.  Used by side-panel/side-panel.js.

export function renderWebmcpCard(serverState, { el, act, permissionControl, matchesFilter }) {
  const sites = (Array.isArray(serverState?.webmcpSites) ? serverState.webmcpSites : [])
    .filter((s) => s && typeof s.key === 'string' && matchesFilter('webmcp', s.site, ...(s.tools ?? []).map((t) => t?.name)));
  if (sites.length === 0) return null;
  return el('div', { class: 'card', 'data-testid': 'webmcp-sites' },
    el('div', { class: 'card-head' }, el('div', { class: 'grow' }, el('h3', {}, 'WebMCP page tools'),
      el('span', { class: 'muted small' }, 'Tools that open web pages publish. Off until you allow a site.'))),
    sites.map((s) => el('div', { class: 'webmcp-site', 'data-testid': `webmcp-site-${s.key}` },
      el('div', { class: 'row', style: 'margin-top:6px' },
        el('span', { class: 'grow' }, el('strong', {}, String(s.site ?? s.key)),
          el('span', { class: 'muted small' }, ` · ${(s.tools ?? []).length} tool(s) in ${(s.tabs ?? []).length} tab(s)`)),
        permissionControl(`webmcp-perm-${s.key}`, s.permission ?? 'off',
          (level) => act('sp:setPluginPermission', { plugin: s.key, permission: level }))),
      el('details', {},
        el('summary', {}, 'Tools'),
        (s.tools ?? []).map((t) => el('div', { class: 'tool', 'data-testid': `webmcp-tool-${s.key}-${t.name}` },
          el('div', { class: 'name' }, String(t.name)),
          permissionControl(`webmcp-perm-${s.key}-${t.name}`, t.permission ?? 'off',
            (level) => act('sp:setToolPermission', { plugin: s.key, tool: t.name, permission: level }))))))));
}
