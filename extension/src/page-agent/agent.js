// The page agent's entry point, injected last: globalThis.__opentabsPageAgent(op, args) runs
// one operation of the ops table and returns {value}, or {__error, __expected} where
// __expected marks a refusal the caller made (a bad selector, a stale ref) rather than a
// fault of the page or the agent.  Its presence tells runPageOpIn that every file of the
// agent has run in this world.
(() => {
  'use strict';
  const parts = globalThis.__opentabsAgentParts;
  const { AgentError, currentRegistry } = parts;

  function errorOutcome(err) {
    const expected = err instanceof AgentError;
    return { __error: expected ? err.message : `${err?.name ?? 'Error'}: ${err?.message ?? err}`, __expected: expected };
  }

  // Runs ops[op] with args; a promise it returns becomes a promise of the outcome.
  function dispatch(ops, op, args) {
    const fn = Object.hasOwn(ops, op) ? ops[op] : undefined;
    if (typeof fn !== 'function') return { __error: `unknown page operation ${op}` };
    try {
      const value = fn(args ?? {});
      if (value && typeof value.then === 'function') return value.then((v) => ({ value: v }), errorOutcome);
      return { value };
    } catch (err) {
      return errorOutcome(err);
    }
  }

  globalThis.__opentabsPageAgent = function (op, args) {
    currentRegistry();
    // An agent works in this document: dialog-relay.js (same world) holds its dialogs until
    // the background can answer them.
    globalThis.__opentabsDialogGate = true;
    return dispatch(parts.ops, op, args);
  };

  Object.assign(parts, { errorOutcome, dispatch });
})();
