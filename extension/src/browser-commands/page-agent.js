// The background side of the page agent: runs one page operation in a tab's document and
// maps its outcome to a result or a ProtocolError.  The page side (finding elements, the
// snapshot, the scripted interactions) is the classic scripts of ../page-agent/, injected
// into the tab's ISOLATED world the first time a document needs them; the ISOLATED world
// keeps them, and the ref registry, out of the page's reach and between calls.
//
// Refs are `e<n>@<tag>`, the tag naming the document that handed them out (see
// ../page-agent/registry.js); a ref of a cross-origin frame's document is run in that
// document, found through the frame documents remembered here.

import { ProtocolError, ERR_INVALID_PARAMS, ERR_INTERNAL } from '../shared/constants.js';
import { verifiedDialog, nextDialog, blockedError } from './dialogs.js';

export const TRUNCATION_MARKER = '[... truncated';

// The page agent's files, in injection order: each adds its parts to one namespace object
// and reads the parts of the files before it; agent.js, last, defines the entry point.
export const PAGE_AGENT_FILES = [
  'registry.js', 'find.js', 'geometry.js', 'roles.js', 'pointer-targets.js', 'snapshot.js',
  'ops-read.js', 'ops-pointer.js', 'ops-input.js', 'agent.js',
].map((name) => `src/page-agent/${name}`);

// Injected as `func`, so it names nothing outside itself (Chrome serialises its source): runs
// the operation when this document's ISOLATED world has the agent, else says it is missing.
function callPageAgent(op, args) {
  const agent = globalThis.__opentabsPageAgent;
  return typeof agent === 'function' ? agent(op, args) : { __agentMissing: true };
}

// One executeScript per operation once a document has the agent; the first operation in a
// document injects the agent's files between two calls.
async function executeInPage(target, op, args) {
  const call = () => chrome.scripting.executeScript({ target, world: 'ISOLATED', func: callPageAgent, args: [op, args] });
  const results = await call();
  if (!results?.[0]?.result?.__agentMissing) return results;
  await chrome.scripting.executeScript({ target, world: 'ISOLATED', files: PAGE_AGENT_FILES });
  return call();
}

// Documents of cross-origin frames whose refs a snapshot handed out, per tab: ref tag ->
// {frameId, documentId, token, parent} (token: the frame's probe token in its parent document;
// parent: the parent's entry, null for the top document).  A ref with such a tag is run in that document (by
// documentId, so a frame that navigated since refuses it); any other ref or selector runs in
// the top frame.  Kept in memory only: after a service-worker restart such refs are refused
// like refs of a document that went away (take a new snapshot).
const MAX_FRAME_DOCS_PER_TAB = 200;
const frameDocs = new Map();

export function rememberFrameDocument(tabId, tag, info) {
  if (!tag || !info?.documentId) return;
  let docs = frameDocs.get(tabId);
  if (!docs) { docs = new Map(); frameDocs.set(tabId, docs); }
  docs.delete(tag);
  docs.set(tag, info);
  while (docs.size > MAX_FRAME_DOCS_PER_TAB) docs.delete(docs.keys().next().value);
}

globalThis.chrome?.tabs?.onRemoved?.addListener((tabId) => frameDocs.delete(tabId));

const tagOfRef = (ref) => (typeof ref === 'string' ? /^e[0-9]+@([0-9a-z]+)$/.exec(ref)?.[1] : undefined);

export function frameOfRef(tabId, ref) {
  const tag = tagOfRef(ref);
  return tag ? frameDocs.get(tabId)?.get(tag) ?? null : null;
}

// Runs one page operation (ISOLATED world) and returns {value, frameId, documentId}, or
// throws a ProtocolError with the page's explanation.  `where` is {frameId} or a remembered
// frame document; by default the ref's frame document, else the top frame.
export async function runPageOpIn(tabId, op, args, where) {
  const frame = where ?? frameOfRef(tabId, args?.ref);
  const target = frame?.documentId ? { tabId, documentIds: [frame.documentId] }
    : frame?.frameId !== undefined ? { tabId, frameIds: [frame.frameId] } : { tabId };
  // A tab blocked by a JavaScript dialog cannot run anything: say so at once, naming the
  // dialog, rather than wait for the dispatch timeout; likewise when one opens meanwhile.
  const blocked = await verifiedDialog(tabId);
  if (blocked) throw blockedError(tabId, blocked);
  const dialog = nextDialog(tabId);
  let results;
  try {
    results = await Promise.race([
      executeInPage(target, op, args ?? {}),
      dialog.promise.then((d) => { throw blockedError(tabId, d); }),
    ]);
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    if (frame?.documentId && args?.ref) {
      throw new ProtocolError(ERR_INVALID_PARAMS, `Ref '${args.ref}' is from a frame document that is no longer in this tab (the frame navigated or was removed); take a new browser_snapshot and use its refs`);
    }
    throw new ProtocolError(ERR_INTERNAL, `Cannot run in tab ${tabId}${frame ? ` (frame ${frame.frameId})` : ''}: ${err?.message ?? err}`);
  } finally {
    dialog.cancel();
  }
  const first = results?.[0];
  const out = first?.result;
  // Still missing after the injection: the document changed in between.
  if (!out || out.__agentMissing) throw new ProtocolError(ERR_INTERNAL, `No result from tab ${tabId} (the page may have navigated)`);
  if (out.__error) throw new ProtocolError(out.__expected ? ERR_INVALID_PARAMS : ERR_INTERNAL, out.__error);
  return { value: out.value, frameId: first.frameId ?? frame?.frameId ?? 0, documentId: first.documentId, frame };
}

// Runs one page operation and returns its value.  An element located inside a cross-origin
// frame gets the frame's offset added, so its x/y are viewport coordinates of the tab (what
// CDP input events take: the browser routes them into the frame).
export async function runPageOp(tabId, op, args) {
  const { value, frame } = await runPageOpIn(tabId, op, args);
  if (op === 'locate' && frame) {
    let child = frame;
    for (let hops = 0; child && hops < 10; hops++) {
      const parent = child.parent;
      const { value: origin } = await runPageOpIn(tabId, 'frameOrigin', { token: child.token }, parent ?? { frameId: 0 });
      value.x += origin.x;
      value.y += origin.y;
      child = parent;
    }
  }
  return value;
}
