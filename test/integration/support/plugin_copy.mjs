// A copy of the notes fixture plugin under `root/<name>`, with its package name changed so each
// copy is its own plugin (tests that need several plugin folders to break in different ways).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const NOTES = new URL('../../fixtures/plugins/notes', import.meta.url).pathname;

export function pluginCopy(root, name) {
  const dir = join(root, name);
  cpSync(NOTES, dir, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  pkg.name = `opentabs-plugin-${name}`;
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  return dir;
}
