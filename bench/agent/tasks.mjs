// The agent benchmark's tasks.  Each has a page, a check (a page expression that is true once
// the task is done) and one script per server in that server's own tool names, written the
// way a competent agent would drive it: start from a snapshot, read the ref (uid) of what to
// act on from the snapshot's text, act by that ref, wait where the page needs it.  No script
// uses a selector or ref the page's text would not give an agent.  A script that throws
// `Unsupported` means the server has no tool for the step.
//
// Script arguments: (a, page, env) where a is the session (call, ref), page the tab handle
// (opentabs: tabId, DevTools: pageId, Playwright: none, it drives its current tab) and env
// { workDir, otherUrl }.
import { evaluated } from './sessions.mjs';

export class Unsupported extends Error {}

// The snapshot line matching pattern must have a ref; a missing one fails the task by name.
export function need(a, text, pattern) {
  const ref = a.ref(text, pattern);
  if (!ref) throw new Error(`no ref on a snapshot line matching ${pattern}`);
  return ref;
}

// What Playwright MCP's action answered with, when it carries the page's snapshot; else a new
// snapshot (with --output-dir its answers link to a snapshot file instead).
export const pwView = async (a, answer) => (/```yaml/.test(answer) ? answer : a.call('browser_snapshot'));

// opentabs' text search over the snapshot: the ref of the line named exactly `text` (a menu's
// bar item names itself by all the text it holds once open), else of the first line with one.
export async function findRef(a, tabId, text) {
  const { matches } = JSON.parse(await a.call('browser_find', { tabId, text }));
  const exact = matches.find((m) => m.includes(JSON.stringify(text)) && a.ref(m, /\[ref=/));
  const ref = a.ref(exact ?? matches.find((m) => a.ref(m, /\[ref=/)) ?? '', /\[ref=/);
  if (!ref) throw new Error(`browser_find found no line with a ref for "${text}"`);
  return ref;
}

// Where a page's only canvas sits in the viewport (inside its 1px border), as an agent
// reading a screenshot or the element's box would know it.
const CANVAS_ORIGIN = "(() => { const r = document.querySelector('canvas').getBoundingClientRect(); return { x: r.x + 1, y: r.y + 1 }; })()";

export const canvasClick = {
  opentabs: async (a, tabId, x, y) => {
    const box = JSON.parse(await a.call('browser_query_elements', { tabId, selector: 'canvas' })).elements[0].rect;
    await a.call('browser_mouse', { tabId, action: 'click', x: box.x + 1 + x, y: box.y + 1 + y });
  },
  playwright: async (a, _, x, y) => {
    const o = evaluated(await a.call('browser_evaluate', { function: `() => ${CANVAS_ORIGIN}` }));
    await a.call('browser_mouse_click_xy', { x: o.x + x, y: o.y + y });
  },
  devtools: async (a, pageId, x, y) => {
    const o = evaluated(await a.call('evaluate_script', { pageId, function: `() => ${CANVAS_ORIGIN}` }));
    await a.call('click_at', { pageId, x: o.x + x, y: o.y + y });
  },
};

// Keyup autocompletes: type key by key, then click the hit that shows up.
export const typeAndPick = {
  opentabs: async (a, tabId, field, text, pick) => {
    const snap = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
    await a.call('browser_type_text', { tabId, ref: need(a, snap, field), text, slowly: true });
    await a.call('browser_click_element', { tabId, ref: await findRef(a, tabId, pick) });
  },
  playwright: async (a, _, field, text, pick) => {
    const snap = await a.call('browser_snapshot');
    const after = await pwView(a, await a.call('browser_type', { target: need(a, snap, field), text, slowly: true }));
    await a.call('browser_click', { target: need(a, after, new RegExp(pick)) });
  },
  devtools: async (a, pageId, field, text, pick) => {
    const snap = await a.call('take_snapshot', { pageId });
    await a.call('click', { pageId, uid: need(a, snap, field) });
    await a.call('type_text', { pageId, text });
    let after = await a.call('take_snapshot', { pageId });
    // Its default snapshot leaves out options that cannot take focus; the verbose one has them.
    if (!a.ref(after, new RegExp(pick))) after = await a.call('take_snapshot', { pageId, verbose: true });
    await a.call('click', { pageId, uid: need(a, after, new RegExp(pick)) });
  },
};

// Hover a menu's bar item (and any fly-out on the way), then click an entry of what opened.
const escaped = (text) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
export const hoverPath = {
  opentabs: async (a, tabId, [first, ...rest], entry) => {
    const snap = await a.call('browser_snapshot', { tabId });
    await a.call('browser_hover_element', { tabId, ref: need(a, snap, escaped(first)) });
    for (const item of rest) await a.call('browser_hover_element', { tabId, ref: await findRef(a, tabId, item) });
    await a.call('browser_click_element', { tabId, ref: await findRef(a, tabId, entry) });
  },
  playwright: async (a, _, items, entry) => {
    let view = await a.call('browser_snapshot');
    for (const item of items) view = await pwView(a, await a.call('browser_hover', { target: need(a, view, escaped(item)) }));
    await a.call('browser_click', { target: need(a, view, escaped(entry)) });
  },
  devtools: async (a, pageId, items, entry) => {
    let view = await a.call('take_snapshot', { pageId });
    for (const item of items) view = await a.call('hover', { pageId, uid: need(a, view, escaped(item)), includeSnapshot: true });
    await a.call('click', { pageId, uid: need(a, view, escaped(entry)) });
  },
};

// Drag what matches from onto what matches to, both read from one snapshot.
export const dragOnto = {
  opentabs: async (a, tabId, from, to) => {
    const snap = await a.call('browser_snapshot', { tabId });
    await a.call('browser_drag_element', { tabId, fromRef: need(a, snap, from.opentabs ?? from), toRef: need(a, snap, to.opentabs ?? to) });
  },
  playwright: async (a, _, from, to) => {
    const snap = await a.call('browser_snapshot');
    await a.call('browser_drag', { startTarget: need(a, snap, from.peers ?? from), endTarget: need(a, snap, to.peers ?? to) });
  },
  devtools: async (a, pageId, from, to) => {
    const snap = await a.call('take_snapshot', { pageId });
    await a.call('drag', { pageId, from_uid: need(a, snap, from.peers ?? from), to_uid: need(a, snap, to.peers ?? to) });
  },
};

export const perServer = (helper, ...args) => ({
  opentabs: (a, page) => helper.opentabs(a, page, ...args),
  playwright: (a, page) => helper.playwright(a, page, ...args),
  devtools: (a, page) => helper.devtools(a, page, ...args),
});

export const TASKS = [
  {
    name: 'log in, then wait for the dashboard across the redirect', page: 'login.html',
    check: "document.querySelector('h1')?.textContent === 'Hello again, kim@example.org'",
    opentabs: async (a, tabId) => {
      const snap = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
      await a.call('browser_type_text', { tabId, ref: need(a, snap, /Email/), text: 'kim@example.org' });
      await a.call('browser_click_element', { tabId, ref: need(a, snap, /button "Log in"/) });
      await a.call('browser_wait_for_text', { tabId, text: 'Hello again', timeout: 10_000 });
    },
    playwright: async (a) => {
      const snap = await a.call('browser_snapshot');
      await a.call('browser_type', { target: need(a, snap, /textbox "Email"/), text: 'kim@example.org' });
      await a.call('browser_click', { target: need(a, snap, /button "Log in"/) });
      await a.call('browser_wait_for', { text: 'Hello again' });
    },
    devtools: async (a, pageId) => {
      const snap = await a.call('take_snapshot', { pageId });
      await a.call('fill', { pageId, uid: need(a, snap, /textbox "Email"/), value: 'kim@example.org' });
      await a.call('click', { pageId, uid: need(a, snap, /button "Log in"/) });
      await a.call('wait_for', { pageId, text: ['Hello again'], timeout: 10_000 });
    },
  },
  {
    name: 'open the Account hover menu and choose Past orders', page: 'shop.html',
    check: 'window.done.orders === true',
    ...perServer(hoverPath, ['Account'], 'Past orders'),
  },
  {
    name: 'type into a keyup autocomplete and pick a hit', page: 'shop.html',
    check: "window.done['picked:Borage'] === true",
    ...perServer(typeAndPick, /textbox "Plant"/, 'Bo', 'Borage'),
  },
  {
    name: 'click the greenhouse drawn on the canvas', page: 'shop.html',
    check: 'window.done.greenhouse === true',
    // The green square a screenshot shows is at 220..260 x 90..130 of the canvas.
    ...perServer(canvasClick, 240, 110),
  },
  {
    name: 'drag Kale from the North bed to the empty South bed', page: 'shop.html',
    check: "document.getElementById('seed-kale').parentElement.id === 'bed-south'",
    ...perServer(dragOnto, /"?Kale/, { opentabs: /South bed/, peers: /heading "South bed"/ }),
  },
  {
    name: 'select rows 2 to 4 with a shift-click', page: 'shop.html',
    check: "window.done['range:3'] === true",
    opentabs: async (a, tabId) => {
      // Plain list items carry no ref in a snapshot; browser_find gives the ones it finds one.
      await a.call('browser_snapshot', { tabId });
      await a.call('browser_click_element', { tabId, ref: await findRef(a, tabId, 'Row 2') });
      await a.call('browser_click_element', { tabId, ref: await findRef(a, tabId, 'Row 4'), modifiers: { shift: true } });
    },
    playwright: async (a) => {
      const snap = await a.call('browser_snapshot');
      await a.call('browser_click', { target: need(a, snap, /Row 2/) });
      await a.call('browser_click', { target: need(a, snap, /Row 4/), modifiers: ['Shift'] });
    },
    devtools: async () => { throw new Unsupported('click has no modifier keys'); },
  },
  {
    name: 'move ticket "Fix login bug" to the Review column', page: 'tickets.html',
    check: "document.querySelector('[data-id=\"T-32\"]').parentElement.dataset.col === 'review'",
    ...perServer(dragOnto, /Fix login bug/, { opentabs: /group "Review"/, peers: /heading "Review"/ }),
  },
  {
    name: 'pick 14 April 2027 in a date picker of table cells', page: 'calendar.html',
    check: "document.getElementById('date').value === '2027-04-14'",
    opentabs: async (a, tabId) => {
      const snap = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
      await a.call('browser_click_element', { tabId, ref: need(a, snap, /Visit date/) });
      const open = await a.call('browser_snapshot', { tabId, selector: '#picker' });
      await a.call('browser_click_element', { tabId, ref: need(a, open, /Next month/) });
      const april = await a.call('browser_snapshot', { tabId, selector: '#picker' });
      if (!/April 2027/.test(april)) throw new Error('the picker does not show April 2027');
      await a.call('browser_click_element', { tabId, ref: need(a, april, /"14"/) });
    },
    playwright: async (a) => {
      const snap = await a.call('browser_snapshot');
      const open = await pwView(a, await a.call('browser_click', { target: need(a, snap, /textbox "Visit date"/) }));
      const april = await pwView(a, await a.call('browser_click', { target: need(a, open, /Next month/) }));
      if (!/April 2027/.test(april)) throw new Error('the picker does not show April 2027');
      await a.call('browser_click', { target: need(a, april, /cell "14"|: "?14"?$/) });
    },
    devtools: async (a, pageId) => {
      const snap = await a.call('take_snapshot', { pageId });
      const open = await a.call('click', { pageId, uid: need(a, snap, /textbox "Visit date"/), includeSnapshot: true });
      const april = await a.call('click', { pageId, uid: need(a, open, /Next month/), includeSnapshot: true });
      if (!/April 2027/.test(april)) throw new Error('the picker does not show April 2027');
      await a.call('click', { pageId, uid: need(a, april, /"14"/) });
    },
  },
  {
    name: 'open the Trips menu on hover and choose Past trips', page: 'travel.html',
    check: "location.hash === '#past'",
    ...perServer(hoverPath, ['Trips'], 'Past trips'),
  },
  {
    name: 'type "Li" into a keyup search and choose Lisbon', page: 'travel.html',
    check: "document.getElementById('chosen').textContent === 'Flying to Lisbon (LIS)'",
    ...perServer(typeAndPick, /Destination/, 'Li', 'Lisbon'),
  },
  {
    name: 'click seat B3 on a canvas seat map', page: 'travel.html',
    check: "document.getElementById('seat').textContent === 'Seat B3'",
    // B3 is drawn at (110, 85) of the canvas.
    ...perServer(canvasClick, 110, 85),
  },
  {
    name: 'sign in to a portal and wait for the welcome across a redirect', page: 'portal.html',
    check: "document.querySelector('h1')?.textContent === 'Welcome, badge 4411'",
    opentabs: async (a, tabId) => {
      const snap = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
      await a.call('browser_fill_form', { tabId, fields: [{ ref: need(a, snap, /Badge number/), value: '4411' }, { ref: need(a, snap, /PIN/), value: '9090' }] });
      await a.call('browser_click_element', { tabId, ref: need(a, snap, /button "Enter"/) });
      await a.call('browser_wait_for_text', { tabId, text: 'Welcome, badge', timeout: 10_000 });
    },
    playwright: async (a) => {
      const snap = await a.call('browser_snapshot');
      await a.call('browser_fill_form', { fields: [
        { name: 'Badge number', type: 'textbox', target: need(a, snap, /textbox "Badge number"/), value: '4411' },
        { name: 'PIN', type: 'textbox', target: need(a, snap, /textbox "PIN"/), value: '9090' }] });
      await a.call('browser_click', { target: need(a, snap, /button "Enter"/) });
      await a.call('browser_wait_for', { text: 'Welcome, badge' });
    },
    devtools: async (a, pageId) => {
      const snap = await a.call('take_snapshot', { pageId });
      await a.call('fill_form', { pageId, elements: [{ uid: need(a, snap, /textbox "Badge number"/), value: '4411' }, { uid: need(a, snap, /textbox "PIN"/), value: '9090' }] });
      await a.call('click', { pageId, uid: need(a, snap, /button "Enter"/) });
      await a.call('wait_for', { pageId, text: ['Welcome, badge'], timeout: 10_000 });
    },
  },
  {
    name: 'drop a receipt file from the output folder onto a drop zone', page: 'portal.html',
    check: "document.getElementById('received').textContent === 'taxi-receipt.txt: Taxi 23.50 EUR'",
    opentabs: async (a, tabId) => {
      const snap = await a.call('browser_snapshot', { tabId });
      await a.call('browser_drag_element', { tabId, toRef: need(a, snap, /Drop receipts here/), files: ['taxi-receipt.txt'] });
    },
    playwright: async (a, _, env) => {
      const snap = await a.call('browser_snapshot');
      await a.call('browser_drop', { target: need(a, snap, /Drop receipts here/), paths: [`${env.workDir}/taxi-receipt.txt`] });
    },
    devtools: async () => { throw new Unsupported('no tool drops a file from outside the page'); },
  },
];
