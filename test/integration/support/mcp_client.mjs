// The official MCP SDK client on the real server, the way MCP hosts connect: Streamable HTTP
// with the bearer token, recording logging and tools/list_changed notifications.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * @param {{base: string, secret: string}} s  a server from support/server.mjs
 * @param {{path?: string, name?: string, secret?: string}} [opts]
 */
export async function connectSdk(s, { path = '/mcp', name = 'opentabs-test', secret = s.secret } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(s.base + path), {
    requestInit: { headers: { Authorization: `Bearer ${secret}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  const logs = [];
  const listChanged = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
  client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => listChanged.push(n));
  await client.connect(transport);
  return { client, transport, logs, listChanged };
}
