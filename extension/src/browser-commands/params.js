// Parameter checks shared by the browser command modules.  The server validates every tool
// call against its JSON Schema first; these checks keep the extension safe on its own (a
// request may come from any server that holds the secret) and name what was wrong.

import { ProtocolError, ERR_INVALID_PARAMS } from '../shared/constants.js';
import { markDriven } from './dialogs.js';

export const invalid = (message) => new ProtocolError(ERR_INVALID_PARAMS, message);

export function int(params, name, { required = true, min = 0, fallback } = {}) {
  const v = params?.[name];
  if (v === undefined || v === null) {
    if (required) throw invalid(`Missing ${name} parameter`);
    return fallback;
  }
  if (!Number.isInteger(v) || v < min) throw invalid(`Invalid ${name} parameter: expected an integer >= ${min}`);
  return v;
}

export function num(params, name, { required = true, fallback } = {}) {
  const v = params?.[name];
  if (v === undefined || v === null) {
    if (required) throw invalid(`Missing ${name} parameter`);
    return fallback;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(`Invalid ${name} parameter: expected a number`);
  return v;
}

export function str(params, name, { required = true, max = 100_000, fallback } = {}) {
  const v = params?.[name];
  if (v === undefined || v === null) {
    if (required) throw invalid(`Missing ${name} parameter`);
    return fallback;
  }
  if (typeof v !== 'string') throw invalid(`Invalid ${name} parameter: expected a string`);
  if (v.length > max) throw invalid(`Invalid ${name} parameter: longer than ${max} characters`);
  return v;
}

export function bool(params, name, fallback) {
  const v = params?.[name];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw invalid(`Invalid ${name} parameter: expected true or false`);
  return v;
}

export function intArray(params, name) {
  const v = params?.[name];
  if (!Array.isArray(v) || v.length === 0 || !v.every((x) => Number.isInteger(x) && x >= 0)) {
    throw invalid(`Missing or invalid ${name} parameter: expected a non-empty array of integers`);
  }
  return v;
}

export function httpUrl(params, name = 'url', { required = true } = {}) {
  const url = str(params, name, { required, max: 8192 });
  if (url === undefined) return undefined;
  let parsed;
  try { parsed = new URL(url); } catch { throw invalid(`Invalid ${name} parameter: not a URL`); }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid(`Invalid ${name} parameter: only http and https URLs are allowed`);
  return url;
}

// A tab an agent sends a command to counts as driven: dialogs its pages open are held until
// the debugger can answer them (dialogs.js).
export const tabId = (params) => {
  const id = int(params, 'tabId', { min: 1 });
  markDriven(id);
  return id;
};

// A snapshot ref: element number and the tag of the document it came from (page-agent.js).
const REF_RE = /^e[0-9]{1,9}@[0-9a-z]{4}$/;

// {selector} or {ref}: the element target of an interaction.
export function target(params, { required = true } = {}) {
  const selector = str(params, 'selector', { required: false, max: 4000 });
  const ref = str(params, 'ref', { required: false, max: 20 });
  if (ref !== undefined && !REF_RE.test(ref)) {
    throw invalid(/^e[0-9]{1,9}$/.test(ref)
      ? `Invalid ref '${ref}': it lacks the document tag; refs look like e12@k3f9, copy the whole ref from the latest browser_snapshot`
      : `Invalid ref '${ref}': refs look like e12@k3f9 (from browser_snapshot)`);
  }
  if (required && selector === undefined && ref === undefined) throw invalid('Give either selector or ref');
  return { selector, ref };
}
