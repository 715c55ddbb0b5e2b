// The benchmark's stand-in for the Chrome extension, run as its own process (bench.mjs forks
// it) so its CPU is measured apart from the HTTP load generator's.  Opens `connections`
// WebSockets to /ws with the real subprotocols, each claiming a ready tab for its share of
// the plugins (tab.syncAll), and answers every tool.dispatch at once.  Other server
// messages (sync.full, tool.invocationStart/End) are read and ignored without parsing.
//
// Several connections (--ext-connections) split the plugins between them; each call then
// still sends tool.invocationStart/End to every connection, as the server broadcasts them.

// ws is installed with the test side's npm packages (test/package.json).
import { createRequire } from 'node:module';

const WebSocket = createRequire(new URL('../test/package.json', import.meta.url))('ws');

const [port, secret, connectionsArg, pluginsJson] = process.argv.slice(2);
const connections = Number(connectionsArg);
const plugins = JSON.parse(pluginsJson);
const DISPATCH = '"method":"tool.dispatch"';
let answered = 0;

function open(index) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, ['opentabs', secret, `bench-${index}`], { perMessageDeflate: false });
    ws.on('message', (data) => {
      const text = data.toString();
      if (!text.includes(DISPATCH)) return;
      const id = JSON.parse(text).id;
      ws.send(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"output":{"ok":true}}}`);
      answered++;
    });
    ws.once('open', () => {
      const mine = plugins.filter((_, i) => i % connections === index);
      const tabs = {};
      mine.forEach((p, i) => (tabs[p] = { state: 'ready', tabs: [{ tabId: 1000 * (index + 1) + i, url: `http://localhost/${p}/`, title: p, ready: true }] }));
      ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'tab.syncAll', params: { tabs } }));
      resolve(ws);
    });
    ws.once('error', reject);
  });
}

const sockets = [];
for (let i = 0; i < connections; i++) sockets.push(await open(i));
process.send({ ready: true });
process.on('message', (m) => {
  if (m === 'count') process.send({ answered });
  if (m === 'exit') {
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
