// CSS inspection (CDP DOM.* + CSS.*): matched rules and computed style of an element, forced
// pseudo-classes, and rule-usage coverage.  The element is found by the page agent (so the
// same selector syntax works) and marked with a temporary attribute that DOM.querySelector
// can find.  Forced pseudo-classes exist only while the session lives, so they hold it.

import { ProtocolError, ERR_INTERNAL } from '../shared/constants.js';
import { str, tabId as requireTabId, invalid } from './params.js';
import { runPageOp } from './page-agent.js';
import { hold, release, send, withDebugger, onEvent, holds } from './debugger.js';

const CORE_PROPERTIES = ['display', 'position', 'top', 'left', 'right', 'bottom', 'width', 'height', 'margin-top', 'margin-right',
  'margin-bottom', 'margin-left', 'padding-top', 'padding-right', 'padding-bottom', 'padding-left', 'color', 'background-color',
  'font-family', 'font-size', 'font-weight', 'line-height', 'text-align', 'visibility', 'opacity', 'z-index', 'overflow',
  'border-top-width', 'border-top-style', 'border-top-color', 'box-sizing', 'flex-direction', 'justify-content', 'align-items',
  'cursor', 'pointer-events', 'transform'];
const PSEUDO = new Set(['active', 'focus', 'focus-visible', 'focus-within', 'hover', 'target', 'visited']);
const pseudoForced = new Map(); // tabId -> Set of marker tokens with forced state

// The document root nodeId per tab.  DOM.getDocument renumbers every node, and Chrome keys
// forced pseudo-states by nodeId, so asking for the document again would make a forced
// state impossible to clear; the root is reused while it still answers.
const documentRoots = new Map();

async function nodeIdFor(tabId, selector) {
  const { token } = await runPageOp(tabId, 'nodePath', { selector });
  await send(tabId, 'DOM.enable');
  await send(tabId, 'CSS.enable');
  const marker = `[data-opentabs-inspect="${token}"]`;
  let nodeId = 0;
  const cached = documentRoots.get(tabId);
  if (cached !== undefined) {
    try { ({ nodeId } = await send(tabId, 'DOM.querySelector', { nodeId: cached, selector: marker })); } catch { nodeId = 0; }
  }
  if (!nodeId) {
    const { root } = await send(tabId, 'DOM.getDocument', { depth: 0 });
    documentRoots.set(tabId, root.nodeId);
    ({ nodeId } = await send(tabId, 'DOM.querySelector', { nodeId: root.nodeId, selector: marker }));
  }
  if (!nodeId) throw new ProtocolError(ERR_INTERNAL, `Lost the element '${selector}' while inspecting it`);
  return { nodeId, token };
}

const ruleOut = (match) => ({
  selector: match.rule.selectorList?.text ?? '',
  origin: match.rule.origin,
  source: match.rule.styleSheetId ? undefined : 'built-in',
  media: match.rule.media?.map((m) => m.text),
  properties: (match.rule.style?.cssProperties ?? []).filter((p) => p.text || p.implicit === false).map((p) => `${p.name}: ${p.value}${p.important ? ' !important' : ''}`),
});

export const commands = {
  'browser.getElementStyles': async (params) => {
    const tabId = requireTabId(params);
    const selector = str(params, 'selector', { max: 4000 });
    return withDebugger(tabId, async () => {
      const { nodeId, token } = await nodeIdFor(tabId, selector);
      try {
        const { computedStyle } = await send(tabId, 'CSS.getComputedStyleForNode', { nodeId });
        const matched = await send(tabId, 'CSS.getMatchedStylesForNode', { nodeId });
        const rules = (matched.matchedCSSRules ?? []).filter((m) => m.rule.origin !== 'user-agent').map(ruleOut);
        const declared = new Set(rules.flatMap((r) => r.properties.map((p) => p.split(':')[0])));
        const inline = (matched.inlineStyle?.cssProperties ?? []).filter((p) => p.text).map((p) => `${p.name}: ${p.value}`);
        for (const p of inline) declared.add(p.split(':')[0]);
        const computed = {};
        for (const { name, value } of computedStyle) if (CORE_PROPERTIES.includes(name) || declared.has(name)) computed[name] = value;
        return { selector, computed, inlineStyle: inline, matchedRules: rules.reverse(), userAgentRules: (matched.matchedCSSRules ?? []).filter((m) => m.rule.origin === 'user-agent').length };
      } finally {
        await runPageOp(tabId, 'unmark', { token }).catch(() => {});
      }
    });
  },

  'browser.forcePseudoState': async (params) => {
    const tabId = requireTabId(params);
    const selector = str(params, 'selector', { max: 4000 });
    // Wire shape (PROTOCOL.md): ':hover', ':focus', ... with the colon, as the OpenTabs server
    // sends them; bare names ('hover') are still accepted.  CDP takes bare names.
    const given = params?.pseudoClasses;
    const bare = (p) => (typeof p === 'string' && p.startsWith(':') ? p.slice(1) : p);
    if (!Array.isArray(given) || !given.every((p) => PSEUDO.has(bare(p)))) throw invalid(`Invalid pseudoClasses: allowed ${[...PSEUDO].map((p) => `:${p}`).join(', ')}`);
    const pseudoClasses = [...new Set(given.map(bare))];
    await hold(tabId, 'pseudo');
    const { nodeId } = await nodeIdFor(tabId, selector);
    await send(tabId, 'CSS.forcePseudoState', { nodeId, forcedPseudoClasses: pseudoClasses });
    // The marker attribute stays: it names the node whose state is forced.
    const forced = pseudoForced.get(tabId) ?? new Set();
    if (pseudoClasses.length) forced.add(nodeId); else forced.delete(nodeId);
    pseudoForced.set(tabId, forced);
    if (!forced.size) release(tabId, 'pseudo');
    return { ok: true, tabId, selector, forced: pseudoClasses, forcedPseudoClasses: pseudoClasses.map((p) => `:${p}`), debuggerHeld: holds(tabId, 'pseudo') };
  },

  'browser.getCssCoverage': async (params) => {
    const tabId = requireTabId(params);
    return withDebugger(tabId, async () => {
      const sheets = new Map();
      const stop = onEvent(tabId, (method, p) => {
        if (method === 'CSS.styleSheetAdded') sheets.set(p.header.styleSheetId, p.header);
      });
      try {
        await send(tabId, 'DOM.enable');
        // Re-enabling CSS replays CSS.styleSheetAdded for every sheet (unless forced
        // pseudo-classes need the domain to stay on; then sizes come from the sheet text).
        if (!holds(tabId, 'pseudo')) await send(tabId, 'CSS.disable').catch(() => {});
        await send(tabId, 'CSS.enable');
        await send(tabId, 'CSS.startRuleUsageTracking');
        // A full style recalculation, so every rule that applies to the page is evaluated.
        await send(tabId, 'Runtime.evaluate', { expression: "document.documentElement.classList.add('__ot_cov');void document.body.offsetHeight;document.documentElement.classList.remove('__ot_cov');void document.body.offsetHeight" });
        const { ruleUsage } = await send(tabId, 'CSS.stopRuleUsageTracking');
        const bySheet = new Map();
        for (const u of ruleUsage) {
          const s = bySheet.get(u.styleSheetId) ?? { usedBytes: 0, rules: 0, usedRules: 0 };
          s.rules++;
          if (u.used) { s.usedRules++; s.usedBytes += u.endOffset - u.startOffset; }
          bySheet.set(u.styleSheetId, s);
        }
        for (const id of bySheet.keys()) {
          if (sheets.has(id)) continue;
          const { text } = await send(tabId, 'CSS.getStyleSheetText', { styleSheetId: id }).catch(() => ({ text: '' }));
          sheets.set(id, { styleSheetId: id, length: text.length, sourceURL: '', origin: 'regular' });
        }
        const out = [];
        for (const [id, header] of sheets) {
          const u = bySheet.get(id) ?? { usedBytes: 0, rules: 0, usedRules: 0 };
          const total = Math.round(header.length ?? 0);
          out.push({
            url: header.sourceURL || (header.isInline ? '(inline <style>)' : ''), origin: header.origin, totalBytes: total,
            usedBytes: u.usedBytes, unusedBytes: Math.max(0, total - u.usedBytes), rules: u.rules, usedRules: u.usedRules,
            usedPercent: total ? Math.round((u.usedBytes / total) * 1000) / 10 : 0,
          });
        }
        return { stylesheets: out.filter((s) => s.origin !== 'user-agent') };
      } finally {
        stop();
        if (!holds(tabId, 'pseudo')) await send(tabId, 'CSS.disable').catch(() => {});
      }
    });
  },
};
