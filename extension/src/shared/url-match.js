// Chrome match-pattern matching for plugin URL patterns (protocol §4.4): scheme `*` means
// http or https only, `*.example.com` also matches `example.com`, a port in the pattern must
// equal the URL's port while a pattern without a port matches any port, and the path is a glob
// over the pathname.  Pure functions: used by the background for tab selection and by tests.

const PATTERN_RE = /^(\*|https?):\/\/(\[[^\]]+\]|[^/:]+)(?::(\d+|\*))?(\/.*)$/;

// Parses one pattern into its parts, or returns null for an unsupported pattern
// (`<all_urls>` and non-http schemes are never honoured for plugins).
export function parsePattern(pattern) {
  if (typeof pattern !== 'string') return null;
  const m = PATTERN_RE.exec(pattern);
  if (!m) return null;
  const [, scheme, host, port, path] = m;
  return { scheme, host: host.toLowerCase(), port: port ?? null, path };
}

function globToRegExp(glob) {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

function hostMatches(patternHost, urlHost) {
  if (patternHost === '*') return true;
  if (patternHost.startsWith('*.')) {
    const base = patternHost.slice(2);
    return urlHost === base || urlHost.endsWith(`.${base}`);
  }
  return patternHost === urlHost;
}

// True when `url` (string) matches the single match pattern.
export function urlMatchesPattern(url, pattern) {
  const p = parsePattern(pattern);
  if (!p) return false;
  let u;
  try { u = new URL(url); } catch { return false; }
  const scheme = u.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') return false;
  if (p.scheme !== '*' && p.scheme !== scheme) return false;
  if (!hostMatches(p.host, u.hostname.toLowerCase())) return false;
  if (p.port !== null && p.port !== '*') {
    const urlPort = u.port || (scheme === 'https' ? '443' : '80');
    if (p.port !== urlPort) return false;
  }
  // Chrome matches the path pattern against path + query.
  return globToRegExp(p.path).test(u.pathname + u.search);
}

// True when the URL matches any include pattern and no exclude pattern.
export function urlMatchesPlugin(url, includePatterns, excludePatterns = []) {
  if (!Array.isArray(includePatterns)) return false;
  if (!includePatterns.some((p) => urlMatchesPattern(url, p))) return false;
  return !(Array.isArray(excludePatterns) && excludePatterns.some((p) => urlMatchesPattern(url, p)));
}

// host[:port] of a URL with 127.0.0.1 and [::1] written as localhost, as the server does when
// it resolves `instance` names, so instance lookups agree on both sides.
export function normalisedHost(url) {
  try {
    const u = new URL(url);
    let host = u.hostname.toLowerCase();
    if (host === '127.0.0.1' || host === '[::1]') host = 'localhost';
    return u.port ? `${host}:${u.port}` : host;
  } catch {
    return '';
  }
}
