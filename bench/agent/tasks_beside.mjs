// Tasks of agents working beside a person (issue 37): a tab behind the one a link opened in
// front, a chain of three dialogs from one click, a keyup-only search typed with each
// server's default typing, and two agents at once on two tabs (`agents`: one task each, run
// at the same time through two MCP sessions; see sessions.mjs partner()).  Same rules as
// tasks.mjs.  The peers' scripts follow their own
// tools: Playwright MCP and DevTools MCP act on their selected page, so going back to the
// first tab is a tab switch there.
import { need, pwView, findRef, TASKS } from './tasks.mjs';
import { UNSEEN_TASKS } from './tasks_unseen.mjs';

const SAVED = "document.getElementById('state').textContent === 'Saved'";

// Open the guide (a new tab in front), then save the draft on the first tab.
const saveBehindGuide = {
  opentabs: async (a, tabId) => {
    const snap = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
    await a.call('browser_click_element', { tabId, ref: need(a, snap, /link "Open the style guide"/) });
    await a.call('browser_click_element', { tabId, ref: need(a, snap, /button "Save draft"/) });
  },
  playwright: async (a) => {
    const snap = await a.call('browser_snapshot');
    await a.call('browser_click', { target: need(a, snap, /link "Open the style guide"/) });
    const back = await pwView(a, await a.call('browser_tabs', { action: 'select', index: 0 }));
    await a.call('browser_click', { target: need(a, back, /button "Save draft"/) });
  },
  devtools: async (a, pageId) => {
    const snap = await a.call('take_snapshot', { pageId });
    await a.call('click', { pageId, uid: need(a, snap, /link "Open the style guide"/) });
    await a.call('click', { pageId, uid: need(a, snap, /button "Save draft"/) });
  },
};

// The same save on the tab in front (opentabs opens its tabs behind the person's: it shows
// this one first).
const saveInFront = {
  opentabs: async (a, tabId) => {
    await a.call('browser_focus_tab', { tabId });
    const snap = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
    await a.call('browser_click_element', { tabId, ref: need(a, snap, /button "Save draft"/) });
  },
  playwright: async (a) => {
    const snap = await a.call('browser_snapshot');
    await a.call('browser_click', { target: need(a, snap, /button "Save draft"/) });
  },
  devtools: async (a, pageId) => {
    const snap = await a.call('take_snapshot', { pageId });
    await a.call('click', { pageId, uid: need(a, snap, /button "Save draft"/) });
  },
};

// One click, then a prompt, a confirm and an alert, each answered as it opens.
const answerChain = {
  opentabs: async (a, tabId) => {
    const snap = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
    const click = JSON.parse(await a.call('browser_click_element', { tabId, ref: need(a, snap, /button "Share the list"/) }));
    if (click.dialog?.type !== 'prompt') throw new Error('the click did not name the prompt');
    let answer = JSON.parse(await a.call('browser_handle_dialog', { tabId, action: 'accept', promptText: 'Weekly shop' }));
    while (answer.nextDialog) answer = JSON.parse(await a.call('browser_handle_dialog', { tabId, action: 'accept' }));
  },
  playwright: async (a) => {
    const snap = await a.call('browser_snapshot');
    await a.call('browser_click', { target: need(a, snap, /button "Share the list"/) });
    await a.call('browser_handle_dialog', { accept: true, promptText: 'Weekly shop' });
    await a.call('browser_handle_dialog', { accept: true });
    await a.call('browser_handle_dialog', { accept: true });
  },
  devtools: async (a, pageId) => {
    const snap = await a.call('take_snapshot', { pageId });
    await a.call('click', { pageId, uid: need(a, snap, /button "Share the list"/) });
    await a.call('handle_dialog', { pageId, action: 'accept', promptText: 'Weekly shop' });
    await a.call('handle_dialog', { pageId, action: 'accept' });
    await a.call('handle_dialog', { pageId, action: 'accept' });
  },
};

// A keyup-only search typed the way each server types by default (no slowly).
const typeByDefault = {
  opentabs: async (a, tabId) => {
    const snap = await a.call('browser_snapshot', { tabId, interactiveOnly: true });
    await a.call('browser_type_text', { tabId, ref: need(a, snap, /Destination/), text: 'Li' });
    await a.call('browser_click_element', { tabId, ref: await findRef(a, tabId, 'Lisbon') });
  },
  playwright: async (a) => {
    const snap = await a.call('browser_snapshot');
    const after = await pwView(a, await a.call('browser_type', { target: need(a, snap, /Destination/), text: 'Li' }));
    await a.call('browser_click', { target: need(a, after, /Lisbon/) });
  },
  devtools: async (a, pageId) => {
    const snap = await a.call('take_snapshot', { pageId });
    await a.call('fill', { pageId, uid: need(a, snap, /Destination/), value: 'Li' });
    const after = await a.call('take_snapshot', { pageId, verbose: true });
    await a.call('click', { pageId, uid: need(a, after, /Lisbon/) });
  },
};

export const BESIDE_TASKS = [
  { name: '*beside the person:* save the draft on the tab in front', page: 'draft.html', check: SAVED, ...saveInFront },
  { name: 'save the draft on the first tab after its link opened a tab in front', page: 'draft.html', check: SAVED, ...saveBehindGuide },
  {
    name: 'share a list: answer a prompt, a confirm and an alert opened by one click', page: 'chain.html',
    check: "document.getElementById('out').textContent === 'name:Weekly shop family:true told'",
    ...answerChain,
  },
  {
    name: 'type "Li" into a keyup search with default typing and choose Lisbon', page: 'travel.html',
    check: "document.getElementById('chosen').textContent === 'Flying to Lisbon (LIS)'",
    ...typeByDefault,
  },
  {
    name: 'two agents at once: one types a note and saves it, the other types "Li" and chooses Lisbon',
    agents: [UNSEEN_TASKS.find((t) => t.page === 'notes.html'), TASKS.find((t) => t.name.startsWith('type "Li"'))],
  },
];


