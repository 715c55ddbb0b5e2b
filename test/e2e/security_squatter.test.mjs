// A squatter on the extension's port (issue 24, finding 2), in real headless Chromium with the
// real extension: opentabs ran once on the port (so the extension folder, auth.json and
// server.json exist) and stopped; a program without the secret took the port and speaks the
// protocol perfectly (test/integration/support/squatter.mjs: /health, /ws-info, a WebSocket
// that accepts anything and sends browser.listTabs).  The extension must send it neither the
// secret nor a credential, must not answer its request, and must say that the program on the
// port is not opentabs.  Once opentabs is back on the port the extension connects to it.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  tempDir, writeConfig, startServer, extensionDir, readSecret, ensureServerPortFile, launchWithPlaywright,
  extensionSession, waitFor,
} from './support/harness.mjs';
import { startSquatter } from '../integration/support/squatter.mjs';

describe('extension: a squatter on the port', () => {
  const configDir = tempDir('ot-e2e-squatter-');
  let server;
  let squatter;
  let browser;

  after(async () => {
    await browser?.close().catch(() => {});
    await squatter?.close();
    await server?.stop();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  test('gets no secret, no credential and no answer; the extension names it and connects once opentabs is back', async () => {
    writeConfig(configDir);
    server = await startServer(configDir);
    const { port } = server;
    ensureServerPortFile(configDir, port);
    const secret = readSecret(configDir);
    await server.stop();
    server = null;
    squatter = await startSquatter({ port });

    browser = await launchWithPlaywright(extensionDir(configDir));
    const connection = async () => (await extensionSession(browser, ['connection'])).connection;
    // An opentabs-shaped answer with a wrong proof cannot be told from a stale auth.json, so it
    // shows as an authentication failure; either way nothing is sent.
    const refused = await waitFor(async () => {
      const c = await connection();
      return c?.state === 'auth_failed' && c;
    }, 'the extension to refuse the program on the port', 30_000);
    assert.match(refused.detail, new RegExp(`port ${port} could not prove it knows the secret in auth\\.json`));
    // It keeps retrying (every few seconds) and still sends nothing.
    await waitFor(() => squatter.seen.requests.filter((r) => r.url.startsWith('/auth/challenge')).length >= 2, 'a second attempt', 20_000);
    assert.ok(!squatter.transcript().includes(secret), 'the squatter received the secret');
    assert.deepEqual(squatter.credentialsSeen(), [], 'the squatter received a credential');
    assert.deepEqual(squatter.seen.wsConnections, [], 'the extension opened a WebSocket to the squatter');
    assert.deepEqual(squatter.seen.wsMessages, [], 'the extension answered the squatter');

    await squatter.close();
    squatter = null;
    server = await startServer(configDir, { port });
    await waitFor(async () => (await connection())?.state === 'connected', 'the extension to connect to opentabs', 30_000);
  });
});
