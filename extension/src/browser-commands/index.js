// Registry of the `browser.*` / `extension.*` request handlers.  The background routes every
// inbound request whose method starts with `browser.` or `extension.` here.  A handler is
// `async (params, ctx) => result`; it throws an error with a numeric `code` (see
// shared/constants.js ProtocolError) to answer with a JSON-RPC error.  `ctx` gives access to the
// background's state (`ctx.store`) and the server link (`ctx.notifyServer`, `ctx.requestServer`).
//
// This file holds only the registry and the handlers the protocol core needs
// (protocol-core.js).  Further command modules register themselves by exporting a
// `commands` object and being listed in COMMAND_MODULES below.

import { commands as protocolCore } from './protocol-core.js';
import { commands as tabs } from './tabs.js';
import { commands as page } from './page.js';
import { commands as interaction } from './interaction.js';
import { commands as network } from './network.js';
import { commands as emulation } from './emulation.js';
import { commands as css } from './css.js';
import { commands as windows } from './windows.js';
import { commands as data } from './data.js';
import { commands as diagnostics } from './diagnostics.js';
import { commands as actions } from './actions.js';
import { commands as waits } from './waits.js';
import { commands as extras } from './extras.js';
import { commands as clientTabs } from './client-tabs.js';

const COMMAND_MODULES = [protocolCore, tabs, page, interaction, network, emulation, css, windows, data, diagnostics, actions, waits, extras, clientTabs];

export const browserCommands = new Map();

export function registerCommands(commands) {
  for (const [method, handler] of Object.entries(commands)) {
    if (typeof handler === 'function') browserCommands.set(method, handler);
  }
}

for (const module of COMMAND_MODULES) registerCommands(module);
