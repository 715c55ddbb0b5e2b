// The server's built-in browser tool catalog read straight from its source
// (server/tools/browser_catalog.cpp embeds it as one JSON document), with the same
// name -> method rule the server applies, so tests can check the extension against it.
import fs from 'node:fs';
import path from 'node:path';
import { SOURCE_DIR } from './harness.mjs';

export function browserCatalog() {
  const source = fs.readFileSync(path.join(SOURCE_DIR, 'server/tools/browser_catalog.cpp'), 'utf8');
  const start = source.indexOf('R"json(') + 'R"json('.length;
  const document = JSON.parse(source.slice(start, source.indexOf(')json"', start)));
  return document.tools.map((tool) => ({ name: tool.name, method: tool.method ?? deriveMethod(tool.name) }));
}

// "browser_list_tab_groups" -> "browser.listTabGroups" (derive_method in browser_catalog.cpp).
function deriveMethod(name) {
  const underscore = name.indexOf('_');
  return `${name.slice(0, underscore)}.${name.slice(underscore + 1).replace(/_([a-z])/g, (_, c) => c.toUpperCase())}`;
}
