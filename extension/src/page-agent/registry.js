// The page agent's refs: the per-document registry that maps refs to elements, the probe
// tokens of cross-origin frames, the errors an operation reports, and the short description
// of an element every operation returns.
//
// The page agent is a set of classic scripts injected in order into a tab's ISOLATED world
// (runPageOpIn in browser-commands/page-agent.js).  Scripts of one world share one global
// scope and may be injected again, so each file is one function that adds its parts to the
// namespace object globalThis.__opentabsAgentParts and declares nothing at the top level.
// The ISOLATED world keeps the registry out of the page's reach and survives between calls
// for the same document, which is what makes refs stable.
//
// Refs are bound to the document they came from: each document's registry draws a random
// tag, and a ref is `e<n>@<tag>` (e.g. e12@k3f9).  Numbering restarts at e1 in every
// document, so without the tag a ref from a page the tab has since left would name some
// other element of the new page; with it, such a ref is refused.  Elements of same-origin
// iframes are registered in the top document's registry, and a ref to one is refused once
// its frame navigated or was removed.
(() => {
  'use strict';
  const parts = (globalThis.__opentabsAgentParts ??= {});

  const TRUNCATION_MARKER = '[... truncated';

  // Defined once per world: an operation still running (an awaited locate) when the files are
  // injected again must throw errors that the new dispatcher recognises.
  parts.AgentError ??= class AgentError extends Error {};
  // Refusals of a ref: a wait for an element never retries them.
  parts.RefError ??= class RefError extends parts.AgentError {};
  const { AgentError, RefError } = parts;
  const fail = (message) => { throw new AgentError(message); };
  const failRef = (message) => { throw new RefError(message); };

  function newRegistry() {
    // Four base-36 digits (1.7 million tags): short in every ref, and a collision between two
    // documents of one tab is what it would take to misdirect a ref.
    const tag = (crypto.getRandomValues(new Uint32Array(1))[0] % 36 ** 4).toString(36).padStart(4, '0');
    return { document, tag, next: 1, byRef: new Map(), byEl: new WeakMap(), probes: new Map(), probeOf: new WeakMap() };
  }

  // The registry of the document now in this world.  A new document normally brings a new
  // isolated world; the document check also covers a window object that is kept for the next
  // document (initial about:blank).
  function currentRegistry() {
    if (globalThis.__opentabsRefs?.document !== document) globalThis.__opentabsRefs = newRegistry();
    const registry = globalThis.__opentabsRefs;
    registry.probes ??= new Map();
    registry.probeOf ??= new WeakMap();
    return registry;
  }

  // The document tag of a ref, or undefined when the text is not a ref.
  const tagOfRef = (ref) => /^e[0-9]+@([0-9a-z]+)$/.exec(ref)?.[1];

  function refOf(el) {
    const registry = currentRegistry();
    let ref = registry.byEl.get(el);
    if (!ref) {
      ref = `e${registry.next++}@${registry.tag}`;
      registry.byEl.set(el, ref);
      registry.byRef.set(ref, new WeakRef(el));
    }
    return ref;
  }

  // A cross-origin frame's probe token: the background posts it to the frame's window and
  // finds out which extension frame received it (content scripts cannot name a frame's id).
  function probeOf(el) {
    const registry = currentRegistry();
    let token = registry.probeOf.get(el);
    if (!token) {
      token = `p${crypto.getRandomValues(new Uint32Array(2)).join('')}`;
      registry.probeOf.set(el, token);
      registry.probes.set(token, new WeakRef(el));
    }
    return token;
  }

  function describe(el) {
    const text = (el.innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
    return { tag: el.tagName.toLowerCase(), ref: refOf(el), text: text.slice(0, 100) };
  }

  Object.assign(parts, { TRUNCATION_MARKER, fail, failRef, currentRegistry, tagOfRef, refOf, probeOf, describe });
})();
