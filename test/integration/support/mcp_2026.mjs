// Shared pieces of the MCP tests that need the fixture plugin's tab or the stdio bridge: the
// scripted extension with fixture-notes' tab ready, and the official SDK's stdio transport
// spawning `opentabs start --stdio` in front of a running server.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { OPENTABS_BIN } from './server.mjs';
import { ExtensionClient } from './extension_client.mjs';

/** A scripted extension connected to `s`, fixture-notes open and ready in tab 11. */
export async function notesExtension(s, connectionId) {
  const ext = await new ExtensionClient(s, { connectionId }).connect();
  await ext.waitFor((m) => m.method === 'sync.full');
  ext.notify('tab.syncAll', {
    tabs: { 'fixture-notes': { state: 'ready', tabs: [{ tabId: 11, url: 'http://localhost:9876/notes', title: 'Notes', ready: true }] } },
  });
  return ext;
}

/**
 * The stdio bridge for `s` as an SDK transport (2.x unless the 1.x StdioClientTransport is
 * passed as `Transport`); stderr() is what the bridge logged so far.
 */
export function bridgeTransport(s, Transport = StdioClientTransport) {
  const transport = new Transport({
    command: OPENTABS_BIN,
    args: ['start', '--stdio', '--port', String(s.port)],
    env: { HOME: process.env.HOME, PATH: process.env.PATH, OPENTABS_CONFIG_DIR: s.configDir, OPENTABS_SKIP_NPM_DISCOVERY: '1' },
    stderr: 'pipe',
  });
  let logged = '';
  transport.stderr?.on('data', (d) => (logged += d));
  return { transport, stderr: () => logged };
}
