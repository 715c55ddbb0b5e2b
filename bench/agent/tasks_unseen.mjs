// Tasks on pages written after every server's scripts and fixes above (playlist, workspace,
// notes, reports, checkout with its coupon frame, stock, feed): markup none of the servers was
// tuned for.  Same rules as tasks.mjs: each script starts from a snapshot and acts on refs read
// from the page's text.
import { evaluated } from './sessions.mjs';
import { Unsupported, need, pwView, findRef, dragOnto, hoverPath, perServer } from './tasks.mjs';

// The ref of the first line matching pattern after the line matching anchor (a button in the
// post under a heading).
function refAfter(a, text, anchor, pattern) {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => anchor.test(l));
  if (at < 0) return undefined;
  return need(a, lines.slice(at + 1).join('\n'), pattern);
}

const FEED_CENTER = "(() => { const r = document.querySelector('[role=feed]').getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()";
const MAX_WHEELS = 12;

// Turn the wheel over the feed until plot 27's post shows, then thank its gardener.
const feedTask = {
  opentabs: async (a, tabId) => {
    const box = JSON.parse(await a.call('browser_query_elements', { tabId, selector: '[role=feed]' })).elements[0].rect;
    for (let turns = 0; turns < MAX_WHEELS; turns++) {
      const found = JSON.parse(await a.call('browser_find', { tabId, text: 'Plot 27 update' }));
      if (found.count > 0) break;
      await a.call('browser_mouse', { tabId, action: 'wheel', x: box.x + box.width / 2, y: box.y + box.height / 2, deltaY: 1000 });
    }
    const snap = await a.call('browser_snapshot', { tabId, selector: '[role=feed]' });
    await a.call('browser_click_element', { tabId, ref: refAfter(a, snap, /Plot 27 update/, /Thank the gardener/) });
  },
  playwright: async (a) => {
    const center = evaluated(await a.call('browser_evaluate', { function: `() => ${FEED_CENTER}` }));
    await a.call('browser_mouse_move_xy', center);
    let view = await a.call('browser_snapshot');
    for (let turns = 0; turns < MAX_WHEELS && !/Plot 27 update/.test(view); turns++) {
      await a.call('browser_mouse_wheel', { deltaX: 0, deltaY: 1000 });
      view = await a.call('browser_snapshot');
    }
    await a.call('browser_click', { target: refAfter(a, view, /Plot 27 update/, /Thank the gardener/) });
  },
  devtools: async () => { throw new Unsupported('no wheel input (keys and scrolling fire no wheel event)'); },
};

export const UNSEEN_TASKS = [
  {
    name: 'move "Harbour Lights" to the top of a pointer-events playlist', page: 'playlist.html',
    check: "document.querySelector('#queue .track').dataset.song === 'harbour'",
    ...perServer(dragOnto, /Harbour Lights/, /Morning Rain/),
  },
  {
    name: 'choose File, Export as…, PNG image (mouseenter menu, CSS :hover fly-out)', page: 'workspace.html',
    check: "document.getElementById('export-state').textContent === 'Exported as PNG'",
    ...perServer(hoverPath, ['File', 'Export as…'], 'PNG image'),
  },
  {
    name: 'type a note in a contenteditable that counts key presses, then save', page: 'notes.html',
    check: "document.getElementById('saved').textContent === 'Saved: Buy seeds'",
    opentabs: async (a, tabId) => {
      const snap = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
      await a.call('browser_type_text', { tabId, ref: need(a, snap, /Note body/), text: 'Buy seeds', slowly: true });
      await a.call('browser_click_element', { tabId, ref: need(a, snap, /button "Save note"/) });
    },
    playwright: async (a) => {
      const snap = await a.call('browser_snapshot');
      await a.call('browser_type', { target: need(a, snap, /textbox "Note body"/), text: 'Buy seeds', slowly: true });
      await a.call('browser_click', { target: need(a, snap, /button "Save note"/) });
    },
    devtools: async (a, pageId) => {
      const snap = await a.call('take_snapshot', { pageId });
      await a.call('click', { pageId, uid: need(a, snap, /textbox "Note body"/) });
      await a.call('type_text', { pageId, text: 'Buy seeds' });
      await a.call('click', { pageId, uid: need(a, snap, /button "Save note"/) });
    },
  },
  {
    name: 'open Reports (pushState route), wait for it, then the archive across a redirect', page: 'reports.html',
    check: "document.querySelector('h1')?.textContent === 'Archive of 2026'",
    opentabs: async (a, tabId) => {
      const snap = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
      await a.call('browser_click_element', { tabId, ref: need(a, snap, /link "Reports"/) });
      await a.call('browser_wait_for_text', { tabId, text: 'Quarterly report ready', timeout: 10_000 });
      await a.call('browser_click_element', { tabId, ref: await findRef(a, tabId, 'Open the archive') });
      await a.call('browser_wait_for_text', { tabId, text: 'Archive of 2026', timeout: 10_000 });
    },
    playwright: async (a) => {
      const snap = await a.call('browser_snapshot');
      await a.call('browser_click', { target: need(a, snap, /link "Reports"/) });
      const ready = await pwView(a, await a.call('browser_wait_for', { text: 'Quarterly report ready' }));
      await a.call('browser_click', { target: need(a, ready, /button "Open the archive"/) });
      await a.call('browser_wait_for', { text: 'Archive of 2026' });
    },
    devtools: async (a, pageId) => {
      const snap = await a.call('take_snapshot', { pageId });
      await a.call('click', { pageId, uid: need(a, snap, /link "Reports"/) });
      let ready = await a.call('wait_for', { pageId, text: ['Quarterly report ready'], timeout: 10_000 });
      if (!/Open the archive/.test(ready)) ready = await a.call('take_snapshot', { pageId });
      await a.call('click', { pageId, uid: need(a, ready, /button "Open the archive"/) });
      await a.call('wait_for', { pageId, text: ['Archive of 2026'], timeout: 10_000 });
    },
  },
  {
    name: 'choose the Cabin fare inside an open shadow root', page: (env) => `checkout.html?coupons=${env.otherUrl}`,
    check: "document.getElementById('fare').textContent === 'Fare: Cabin'",
    opentabs: async (a, tabId) => {
      const snap = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
      await a.call('browser_click_element', { tabId, ref: need(a, snap, /button "Cabin"/) });
    },
    playwright: async (a) => {
      const snap = await a.call('browser_snapshot');
      await a.call('browser_click', { target: need(a, snap, /button "Cabin"/) });
    },
    devtools: async (a, pageId) => {
      const snap = await a.call('take_snapshot', { pageId });
      await a.call('click', { pageId, uid: need(a, snap, /button "Cabin"/) });
    },
  },
  {
    name: 'redeem coupon SPRING27 in a cross-origin frame', page: (env) => `checkout.html?coupons=${env.otherUrl}`,
    check: "document.getElementById('discount').textContent === 'Coupon SPRING27 applied'",
    opentabs: async (a, tabId) => {
      const snap = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
      await a.call('browser_type_text', { tabId, ref: need(a, snap, /textbox "Coupon code"/), text: 'SPRING27' });
      await a.call('browser_click_element', { tabId, ref: need(a, snap, /button "Redeem"/) });
      await a.call('browser_wait_for_text', { tabId, text: 'Coupon SPRING27 applied', timeout: 10_000 });
    },
    playwright: async (a) => {
      const snap = await a.call('browser_snapshot');
      await a.call('browser_type', { target: need(a, snap, /textbox "Coupon code"/), text: 'SPRING27' });
      await a.call('browser_click', { target: need(a, snap, /button "Redeem"/) });
      await a.call('browser_wait_for', { text: 'Coupon SPRING27 applied' });
    },
    devtools: async (a, pageId) => {
      const snap = await a.call('take_snapshot', { pageId });
      await a.call('fill', { pageId, uid: need(a, snap, /textbox "Coupon code"/), value: 'SPRING27' });
      await a.call('click', { pageId, uid: need(a, snap, /button "Redeem"/) });
      await a.call('wait_for', { pageId, text: ['Coupon SPRING27 applied'], timeout: 10_000 });
    },
  },
  {
    name: 'double-click the Trowel quantity, type 12 and press Enter', page: 'stock.html',
    check: "document.querySelector('[data-item=trowel] .qty').textContent === '12'",
    opentabs: async (a, tabId) => {
      // A table row is one line without refs; browser_find gives the cells holding the text one.
      await a.call('browser_snapshot', { tabId });
      const { matches } = JSON.parse(await a.call('browser_find', { tabId, text: '4' }));
      const cell = /\| 4 \[ref=(e\d+@[0-9a-z]{4})\]/.exec(matches.find((m) => /Trowel/.test(m)) ?? '')?.[1];
      await a.call('browser_click_element', { tabId, ref: cell, doubleClick: true });
      const editing = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
      await a.call('browser_type_text', { tabId, ref: need(a, editing, /textbox "Quantity"/), text: '12', clear: true });
      await a.call('browser_press_key', { tabId, key: 'Enter' });
    },
    playwright: async (a) => {
      const snap = await a.call('browser_snapshot');
      const editing = await pwView(a, await a.call('browser_click', { target: refAfter(a, snap, /Trowel/, /"4"/), doubleClick: true }));
      await a.call('browser_type', { target: need(a, editing, /textbox "Quantity"/), text: '12', submit: true });
    },
    devtools: async (a, pageId) => {
      const snap = await a.call('take_snapshot', { pageId });
      await a.call('click', { pageId, uid: refAfter(a, snap, /Trowel/, /"4"/), dblClick: true });
      await a.call('type_text', { pageId, text: '12', submitKey: 'Enter' });
    },
  },
  {
    name: 'right-click the Garden hose row and choose Archive row', page: 'stock.html',
    check: "document.querySelector('[data-item=hose]').className === 'archived'",
    opentabs: async (a, tabId) => {
      await a.call('browser_snapshot', { tabId });
      await a.call('browser_click_element', { tabId, ref: await findRef(a, tabId, 'Garden hose'), button: 'right' });
      await a.call('browser_click_element', { tabId, ref: await findRef(a, tabId, 'Archive row') });
    },
    playwright: async (a) => {
      const snap = await a.call('browser_snapshot');
      const menu = await pwView(a, await a.call('browser_click', { target: need(a, snap, /Garden hose/), button: 'right' }));
      await a.call('browser_click', { target: need(a, menu, /menuitem "Archive row"/) });
    },
    devtools: async () => { throw new Unsupported('click has no right button'); },
  },
  {
    name: 'thank plot 27 in a feed that loads more on the mouse wheel', page: 'feed.html',
    check: "document.body.dataset.thanked === '27'",
    ...feedTask,
  },
];
