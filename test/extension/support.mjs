// Shared setup of the extension's Node-run unit tests: where the sources are, and how to load
// a command module outside Chromium.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SOURCE_DIR = process.env.OPENTABS_SOURCE_DIR ?? path.resolve(here, '../..');

// The browser-command modules register chrome.* event listeners when they load (the debugger's
// onEvent/onDetached, tab removal).  Node has no chrome API, so these tests give the modules a
// stand-in whose listener registrations do nothing: a fake, because the real API exists only
// inside Chromium.  The functions under test never call chrome.*; the real-Chromium e2e suite
// (test/e2e/browser_*.test.mjs) covers the parts that do.
function installChromeStandIn() {
  if (globalThis.chrome) return;
  const event = { addListener() {}, removeListener() {}, hasListener: () => false };
  const events = new Proxy({}, { get: () => event });
  globalThis.chrome = new Proxy({}, { get: () => events });
}

export async function importExtension(relative) {
  installChromeStandIn();
  return import(pathToFileURL(path.join(SOURCE_DIR, 'extension/src', relative)).href);
}
