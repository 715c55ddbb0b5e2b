// Pre-scripts (protocol §4.8): a plugin's `preScriptFile` is registered as a MAIN-world content
// script at `document_start` (id `opentabs-pre-<plugin>`) so it runs before any page script.

const PREFIX = 'opentabs-pre-';

// Content-script match patterns may not carry a port ("Invalid port"), while plugin patterns
// derived from url settings do (`*://localhost:4001/*`).  The port is dropped for registration,
// so a pre-script also runs on other ports of the same host; it only records values inside that
// page, and the adapter (matched with ports) is still injected only where it belongs.
export function contentScriptPattern(pattern) {
  return pattern.replace(/^([^:]+:\/\/(?:\[[^\]]+\]|[^/:]+)):(\d+|\*)(\/)/, '$1$3');
}

const withoutPorts = (patterns) => [...new Set(patterns.map(contentScriptPattern))];

function desiredScript(plugin) {
  if (!plugin.preScriptFile || plugin.urlPatterns.length === 0) return null;
  return {
    id: `${PREFIX}${plugin.name}`,
    matches: withoutPorts(plugin.urlPatterns),
    ...(plugin.excludePatterns.length ? { excludeMatches: withoutPorts(plugin.excludePatterns) } : {}),
    js: [plugin.preScriptFile],
    runAt: 'document_start',
    world: 'MAIN',
    allFrames: true,
    persistAcrossSessions: true,
  };
}

const sameScript = (a, b) => JSON.stringify([a.js, a.matches, a.excludeMatches ?? []]) ===
  JSON.stringify([b.js, b.matches, b.excludeMatches ?? []]);

// Makes the registered pre-scripts equal to what `plugins` asks for.
export async function syncPreScripts(plugins) {
  const registered = (await chrome.scripting.getRegisteredContentScripts())
    .filter((s) => s.id.startsWith(PREFIX));
  const wanted = new Map();
  for (const p of plugins) {
    const script = desiredScript(p);
    if (script) wanted.set(script.id, script);
  }
  const stale = registered.filter((s) => !wanted.has(s.id) || !sameScript(s, wanted.get(s.id))).map((s) => s.id);
  if (stale.length) await chrome.scripting.unregisterContentScripts({ ids: stale }).catch(() => {});
  const kept = new Set(registered.map((s) => s.id).filter((id) => !stale.includes(id)));
  for (const script of wanted.values()) {
    if (kept.has(script.id)) continue;
    try {
      await chrome.scripting.registerContentScripts([script]);
    } catch (err) {
      console.warn(`[opentabs] registering pre-script ${script.id} failed: ${err?.message ?? err}`);
    }
  }
}

export async function unregisterPreScript(pluginName) {
  await chrome.scripting.unregisterContentScripts({ ids: [`${PREFIX}${pluginName}`] }).catch(() => {});
}
