// Pointer input on a tab that is not shown against the same input on the tab in front
// (issue 37: within 2×), in a plain headless Chromium — no Playwright attached, whose
// flags make a background tab count as shown.  Two tabs of the same page: the agent's tab,
// behind a tab a link opened in front, and that front tab.  Each round times, on each tab, a
// click by selector, a click by x,y and a wheel turn over a scrolling box (reset between
// turns, untimed), as MCP calls through the real binary and extension.  A benchmark: nothing
// is asserted; prints the medians and ranges and the hidden/front ratio.
//
// Usage: node bench/agent/hidden_tab.mjs [--bin build/opentabs] [--rounds 8]
// Needs test/node_modules (cd test && npm ci).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ROOT, option } from './command_line.mjs';

const ROUNDS = Math.min(Math.max(Number(option('--rounds') ?? 8), 1), 50);

const { startMcpStack, json } = await import(pathToFileURL(path.join(ROOT, 'test/e2e/support/mcp_stack.mjs')).href);
const { waitFor } = await import(pathToFileURL(path.join(ROOT, 'test/e2e/support/harness.mjs')).href);

const stack = await startMcpStack({
  tempPrefix: 'ot-hidden-bench-', config: { permissions: { browser: { permission: 'auto' } } }, plainStartPaths: ['/interact.html'],
});
const { tool, site } = stack;
const value = async (tabId, code) => json(await tool('browser_execute_script', { tabId, code })).value;
const CENTRE = "(() => { const r = document.getElementById('scroller').getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()";
const BUTTON = "(() => { const r = document.getElementById('btn').getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()";
const timed = async (work) => { const t = performance.now(); await work(); return performance.now() - t; };

try {
  const hidden = json(await tool('browser_open_tab', { url: `${site.url}/interact.html` }));
  const front = json(await tool('browser_open_tab', { url: `${site.url}/interact.html`, active: true }));
  for (const tab of [hidden, front]) {
    await waitFor(async () => json(await tool('browser_get_tab_info', { tabId: tab.id })).status === 'complete', 'page load');
  }
  const visibility = { hidden: await value(hidden.id, 'document.visibilityState'), front: await value(front.id, 'document.visibilityState') };
  const tabs = { hidden, front };
  const spots = { hidden: { box: await value(hidden.id, CENTRE), btn: await value(hidden.id, BUTTON) }, front: { box: await value(front.id, CENTRE), btn: await value(front.id, BUTTON) } };
  const times = {};
  const record = (key, ms) => (times[key] ??= []).push(ms);
  const notes = new Set();
  let scrolled = { hidden: 0, front: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which tab goes first so neither always follows the other.
    for (const which of round % 2 ? ['front', 'hidden'] : ['hidden', 'front']) {
      const tabId = tabs[which].id;
      const { box, btn } = spots[which];
      // A wheel on a hidden tab may scroll the page: every input starts from the top.
      await value(tabId, "(document.getElementById('scroller').scrollTop = 0, scrollTo(0, 0), true)");
      record(`${which} click (selector)`, await timed(() => tool('browser_click_element', { tabId, selector: '#btn' })));
      record(`${which} click (x,y)`, await timed(() => tool('browser_mouse', { tabId, action: 'click', x: btn.x, y: btn.y })));
      let answer;
      record(`${which} wheel`, await timed(async () => { answer = json(await tool('browser_mouse', { tabId, action: 'wheel', x: box.x, y: box.y, deltaY: 60 })); }));
      if (answer.note) notes.add(`${which}: ${answer.note.slice(0, 120)}`);
      if (await value(tabId, "document.getElementById('scroller').scrollTop + scrollY") > 0) scrolled[which]++;
    }
  }
  const stats = (xs) => { const s = [...xs].sort((a, b) => a - b); return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1] }; };
  console.log(`plain headless Chromium, ${ROUNDS} rounds; document.visibilityState: hidden tab '${visibility.hidden}', front tab '${visibility.front}'`);
  console.log('| input | hidden tab: median (min–max) ms | front tab: median (min–max) ms | hidden / front |');
  console.log('| --- | --- | --- | --- |');
  for (const input of ['click (selector)', 'click (x,y)', 'wheel']) {
    const h = stats(times[`hidden ${input}`]);
    const f = stats(times[`front ${input}`]);
    const cell = (x) => `${x.median.toFixed(0)} (${x.min.toFixed(0)}–${x.max.toFixed(0)})`;
    console.log(`| ${input} | ${cell(h)} | ${cell(f)} | ${(h.median / f.median).toFixed(2)}× |`);
  }
  console.log(`wheel turns that scrolled something: hidden ${scrolled.hidden}/${ROUNDS}, front ${scrolled.front}/${ROUNDS}`);
  for (const n of notes) console.log(`note ${n}`);
  const clicks = await value(hidden.id, 'window.events.length');
  console.log(`clicks the hidden tab's page saw: ${clicks} of ${2 * ROUNDS}; hidden tab still behind: ${!json(await tool('browser_get_tab_info', { tabId: hidden.id })).active}`);
} finally {
  await stack.close();
}
