// What every bench/agent script does before it loads the e2e harness: reads its --name value
// options, and points the harness at the opentabs binary (--bin, else $OPENTABS_BIN, else
// build/opentabs), the source tree and the extension of this checkout (else the server
// installs the extension from the tree it was built in).  Importing this module sets those
// environment variables, so import it before the harness.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);

/** The value after `--name` on the command line, or undefined. */
export const option = (name) => { const at = args.indexOf(name); return at >= 0 ? args[at + 1] : undefined; };

process.env.OPENTABS_BIN = path.resolve(option('--bin') ?? process.env.OPENTABS_BIN ?? path.join(ROOT, 'build/opentabs'));
process.env.OPENTABS_SOURCE_DIR ??= ROOT;
process.env.OPENTABS_EXTENSION_SOURCE ??= path.join(ROOT, 'extension');
