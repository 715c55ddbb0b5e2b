#include "app/plugin_manager.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "app/child_process.hpp"
#include "app/extension_wire.hpp"
#include "app/npm_commands.hpp"
#include "config/config_edits.hpp"
#include "net/caught.hpp"
#include "net/run_bounded.hpp"
#include "platform/os.hpp"
#include "plugins/discovery.hpp"
#include "plugins/naming.hpp"
#include "util/env.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

namespace opentabs::app {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace asio::experimental::awaitable_operators;

namespace {

// Read-only operations (search, checkUpdates, folder.open) running at once, and npm
// processes one of them may run in parallel: at most 2 × 4 npm processes.
constexpr std::size_t kMaxQueryOperations = 2;
constexpr std::size_t kMaxParallelQueries = 4;
constexpr std::size_t kMaxPathLength = 4096;

std::string seconds_text(std::chrono::milliseconds d) {
  if (d.count() % 1000 == 0) return std::to_string(d.count() / 1000) + " s";
  return std::to_string(d.count()) + " ms";
}

error invalid(std::string message) { return make_error(errc::invalid_params, std::move(message)); }
error failed(errc kind, std::string message) { return make_error(kind, std::move(message)); }

// A string parameter that must be present and non-empty.
result<std::string> required_string(const json::object& params, std::string_view key, std::size_t max_len) {
  const auto* v = json::get_string(params, key);
  std::string bad = "Invalid params: " + std::string(key) + " must be a non-empty string";
  if (!v || v->empty()) return invalid(bad);
  if (v->size() > max_len) return invalid(bad + " of at most " + std::to_string(max_len) + " characters");
  for (char c : std::string_view(*v))
    if (c == '\0') return invalid(bad + " without NUL characters");
  return std::string(*v);
}

}  // namespace

npm_timing npm_timing_from_env() {
  npm_timing t;
  if (auto v = env_milliseconds("OPENTABS_NPM_TIMEOUT_MS", 1, max_env_milliseconds)) t.change = *v;
  if (auto v = env_milliseconds("OPENTABS_NPM_QUERY_TIMEOUT_MS", 1, max_env_milliseconds)) t.query = *v;
  if (auto v = env_milliseconds("OPENTABS_UPDATE_CHECK_INTERVAL_MS", 1, max_env_milliseconds)) {
    t.first_update_check = *v;
    t.update_interval = *v;
  }
  return t;
}

// Which operations are running.  Shared with the slots held by running coroutines, so a
// coroutine frame torn down at shutdown never touches a destroyed manager.
struct plugin_manager::activity {
  std::string change;  // the install/update/remove in progress, e.g. "install opentabs-plugin-x"
  std::size_t queries = 0;
};

namespace {

template <class Activity>
class change_slot {
 public:
  change_slot(std::shared_ptr<Activity> a, std::string what) : a_(std::move(a)) { a_->change = std::move(what); }
  ~change_slot() { a_->change.clear(); }
  change_slot(const change_slot&) = delete;
  change_slot& operator=(const change_slot&) = delete;

 private:
  std::shared_ptr<Activity> a_;
};

template <class Activity>
class query_slot {
 public:
  explicit query_slot(std::shared_ptr<Activity> a) : a_(std::move(a)) { ++a_->queries; }
  ~query_slot() { --a_->queries; }
  query_slot(const query_slot&) = delete;
  query_slot& operator=(const query_slot&) = delete;

 private:
  std::shared_ptr<Activity> a_;
};

}  // namespace

struct plugin_manager::found_plugin {
  std::string name;
  std::string display_name;
  std::string version;
  std::string package_name;
  std::string source;  // npm | local
  fs::path source_path;
  std::size_t tool_count = 0;
};

struct plugin_manager::npm_run {
  process_outcome outcome;
  npm::failure failure;  // when outcome.exit_code != 0
  bool ok() const { return outcome.exit_code == 0; }
};

plugin_manager::plugin_manager(net::task_group& tasks, server_config& config, plugin_catalog& catalog, extension_hub& hub, fs::path home,
                               reload_pipeline& reload, announcer& announce, npm_timing timing)
    : tasks_(tasks),
      ex_(tasks.executor()),
      config_(config),
      catalog_(catalog),
      hub_(hub),
      home_(std::move(home)),
      reload_(reload),
      announce_(announce),
      timing_(timing),
      activity_(std::make_shared<activity>()),
      update_timer_(ex_) {}

void plugin_manager::register_methods(extension_hub::method_table& table) {
  using jsonrpc::params_kind, jsonrpc::call_kind, jsonrpc::rate_class;
  struct method {
    const char* name;
    operation op;
    params_kind params;
  };
  for (const method& m : {method{"plugin.search", &plugin_manager::search, params_kind::object},
                          method{"plugin.install", &plugin_manager::install, params_kind::object},
                          method{"plugin.updateFromRegistry", &plugin_manager::update, params_kind::object},
                          method{"plugin.remove", &plugin_manager::remove, params_kind::object},
                          method{"plugin.removeBySpecifier", &plugin_manager::remove_by_specifier, params_kind::object},
                          method{"plugin.checkUpdates", &plugin_manager::check_updates_request, params_kind::none},
                          method{"folder.open", &plugin_manager::open_folder, params_kind::object}}) {
    std::string name = m.name;
    table.add(name, {[this, name, op = m.op](ext_connection& c, const json::object& params, const json::value* id) {
                       start(c, name, op, params, *id);
                       return extension_hub::inbound_outcome{extension_hub::inbound_outcome::kind::deferred, {}};
                     },
                     m.params, call_kind::request, rate_class::limited});
  }
}

void plugin_manager::start(const ext_connection& c, std::string method, operation op, json::object params, json::value id) {
  tasks_.spawn(serve(c.id, std::move(method), op, std::move(params), std::move(id)), "plugin management request");
}

net::awaitable<void> plugin_manager::serve(std::string connection_id, std::string method, operation op,
                                           json::object params, json::value id) {
  auto r = co_await (this->*op)(params);
  json::object reply{{"jsonrpc", "2.0"}, {"id", id}};
  if (r) {
    reply["result"] = std::move(*r);
  } else {
    reply["error"] = extension_error_json(r.err());
    log::warn(method + ": " + r.err().message);
  }
  if (!hub_.send_to(connection_id, reply))
    log::info(method + " finished after the extension that asked disconnected; the answer was dropped");
}

net::awaitable<result<plugin_manager::npm_run>> plugin_manager::run_npm(std::vector<std::string> argv,
                                                                        std::chrono::milliseconds timeout,
                                                                        std::string what) {
  process_options o;
  o.timeout = timeout;
  o.max_output_bytes = 8 * 1024 * 1024;
  auto r = co_await run_process(tasks_, std::move(argv), o);
  if (!r) {
    if (r.err().is(errc::not_found))
      co_return failed(errc::unavailable, "npm is not installed or not on the server's PATH; it is needed for " + what);
    co_return failed(errc::io, "could not run npm for " + what + ": " + r.err().message);
  }
  if (r->timed_out)
    co_return failed(errc::timeout, what + " timed out after " + seconds_text(timeout) +
                                    " and was stopped; is the npm registry reachable from this machine?");
  npm_run out;
  out.outcome = std::move(*r);
  if (out.outcome.exit_code != 0) out.failure = npm::describe_failure(out.outcome.err, out.outcome.exit_code);
  co_return out;
}

std::optional<plugin_manager::found_plugin> plugin_manager::find_installed(std::string_view name) const {
  auto summary = [](const plugins::plugin& p) {
    return found_plugin{p.name(), p.loaded.display_name, p.loaded.version, p.loaded.package_name,
                        p.loaded.source, p.loaded.source_path, p.tools.size()};
  };
  if (const auto* p = catalog_.find_plugin(name)) return summary(*p);
  auto candidates = npm::plugin_package_candidates(name);
  if (!candidates) return std::nullopt;
  for (const auto& c : *candidates) {
    auto derived = plugins::plugin_name_from_package(c);
    for (const auto& p : catalog_.plugins)
      if (p.loaded.package_name == c || (derived && p.name() == *derived)) return summary(p);
  }
  return std::nullopt;
}

// ---- plugin.search ----------------------------------------------------------------------

net::awaitable<result<json::object>> plugin_manager::search(const json::object& params) {
  auto query = npm::search_query_from(json::find(params, "query"));
  if (!query) co_return query.err();
  if (activity_->queries >= kMaxQueryOperations)
    co_return failed(errc::busy, "Too many plugin searches at once; try again shortly");
  query_slot<activity> slot(activity_);

  auto r = co_await run_npm(npm::search_argv(*query), timing_.query, "npm search");
  if (!r) co_return r.err();
  // The registry answers a search that matches nothing with 404: an empty result, as the
  // original server reports it (a side panel shows "Could not reach the npm registry" for
  // an error, though the registry did answer).
  if (!r->ok() && r->failure.kind == npm::failure_kind::package_not_found) co_return json::object{{"results", json::array{}}};
  if (!r->ok())
    co_return npm::failure_error(r->failure, npm::failure_message("search", "keywords:opentabs-plugin", r->failure));
  auto hits = npm::parse_search_output(r->outcome.out);
  if (!hits) co_return failed(errc::io, "npm search printed something unexpected: " + hits.err().message);

  // Display names and icons live in each package's `opentabs` field: one `npm view` per
  // hit, a few at a time, best effort (a hit keeps its package name when it fails).
  auto shared = std::make_shared<std::vector<npm::search_hit>>(std::move(*hits));
  std::vector<net::task_fn> tasks;
  for (std::size_t i = 0; i < shared->size(); ++i) {
    tasks.push_back([this, shared, i]() -> net::awaitable<void> {
      auto& hit = (*shared)[i];
      auto v = co_await run_npm(npm::view_manifest_argv(hit.name, hit.version), timing_.query, "npm view " + hit.name);
      if (v && v->ok()) npm::apply_manifest_output(hit, v->outcome.out);
      else log::debug("no manifest details for " + hit.name + ": " + (v ? v->failure.reason : v.err().message));
    });
  }
  co_await net::run_bounded(ex_, std::move(tasks), kMaxParallelQueries, "npm query");
  json::array results;
  for (const auto& h : *shared) results.push_back(npm::search_hit_json(h));
  co_return json::object{{"results", std::move(results)}};
}

// ---- plugin.install / plugin.updateFromRegistry -----------------------------------------

namespace {

json::object plugin_result(std::string_view name, std::string_view display_name, std::string_view version,
                           std::size_t tool_count) {
  return json::object{{"ok", true},
                      {"plugin", json::object{{"name", json::str(name)},
                                              {"displayName", json::str(display_name)},
                                              {"version", json::str(version)},
                                              {"toolCount", tool_count}}}};
}

}  // namespace

net::awaitable<result<json::object>> plugin_manager::install(const json::object& params) {
  auto name = required_string(params, "name", npm::max_package_name_length);
  if (!name) co_return name.err();
  auto candidates = npm::plugin_package_candidates(*name);
  if (!candidates) co_return candidates.err();
  if (!activity_->change.empty())
    co_return failed(errc::busy, "Another plugin operation is in progress (" + activity_->change + "); try again shortly");
  change_slot<activity> slot(activity_, "install " + candidates->front());

  std::string installed;
  for (std::size_t i = 0; i < candidates->size(); ++i) {
    const auto& pkg = (*candidates)[i];
    log::info("installing plugin package " + pkg + " with npm");
    auto r = co_await run_npm(npm::install_argv(pkg), timing_.change, "npm install " + pkg);
    if (!r) co_return r.err();
    if (r->ok()) {
      installed = pkg;
      break;
    }
    bool more = i + 1 < candidates->size();
    if (r->failure.kind == npm::failure_kind::package_not_found && more) continue;
    if (r->failure.kind == npm::failure_kind::package_not_found && candidates->size() > 1) {
      std::string tried;
      for (const auto& c : *candidates) tried += (tried.empty() ? "" : ", ") + c;
      co_return npm::failure_error(r->failure, "No plugin package for " + quote_for_error(*name, 200) + " was found in the npm registry (tried " +
                                       tried + ")");
    }
    co_return npm::failure_error(r->failure, npm::failure_message("install", pkg, r->failure));
  }
  log::info("npm installed " + installed + "; reloading plugins");
  co_await reload_.reload_off_thread(reload_cause::own_change);

  auto derived = plugins::plugin_name_from_package(installed);
  for (const auto& p : catalog_.plugins) {
    if (p.loaded.package_name == installed || (derived && p.name() == *derived)) {
      log::info("plugin \"" + p.name() + "\" " + p.loaded.version + " installed (" + std::to_string(p.tools.size()) +
                " tools); it starts disabled until reviewed");
      co_return plugin_result(p.name(), p.loaded.display_name, p.loaded.version, p.tools.size());
    }
  }
  for (const auto& e : catalog_.discovery_errors)
    if (e.specifier == installed)
      co_return failed(errc::unsupported, "Package \"" + installed + "\" was installed but could not be loaded as an OpenTabs plugin: " + e.error);
  co_return failed(errc::unsupported, "Package \"" + installed +
                                         "\" was installed but is not a valid OpenTabs plugin (no opentabs field in "
                                         "package.json or missing dist/tools.json)");
}

net::awaitable<result<json::object>> plugin_manager::update(const json::object& params) {
  auto name = required_string(params, "name", npm::max_package_name_length);
  if (!name) co_return name.err();
  auto p = find_installed(*name);
  if (!p) co_return invalid("Plugin " + quote_for_error(*name, 200) + " is not currently installed");
  if (p->source != "npm")
    co_return invalid("Plugin \"" + p->name + "\" is a local plugin (" + p->source_path.string() +
                      "); update it in its source directory, npm cannot");
  if (!npm::is_plugin_package_name(p->package_name))
    co_return failed(errc::unsupported, "Plugin \"" + p->name + "\" has the package name " + quote_for_error(p->package_name, 200) +
                                           ", which npm cannot be asked about");
  if (!activity_->change.empty())
    co_return failed(errc::busy, "Another plugin operation is in progress (" + activity_->change + "); try again shortly");
  change_slot<activity> slot(activity_, "update " + p->package_name);

  log::info("updating plugin package " + p->package_name + " with npm");
  auto r = co_await run_npm(npm::update_argv(p->package_name), timing_.change, "npm update " + p->package_name);
  if (!r) co_return r.err();
  if (!r->ok()) co_return npm::failure_error(r->failure, npm::failure_message("update", p->package_name, r->failure));
  forget_update(p->package_name);
  co_await reload_.reload_off_thread(reload_cause::own_change);
  auto now = find_installed(p->name);
  if (!now)
    co_return failed(errc::unsupported, "Plugin \"" + p->name + "\" disappeared after the update; it may no longer be a "
                                           "valid OpenTabs plugin (see failedPlugins)");
  log::info("plugin \"" + now->name + "\" is now at " + now->version);
  co_return plugin_result(now->name, now->display_name, now->version, now->tool_count);
}

// ---- plugin.remove / plugin.removeBySpecifier -------------------------------------------

result<bool> plugin_manager::drop_local_plugin(const found_plugin& p) {
  std::vector<std::string> entries;
  std::error_code ec;
  for (const auto& spec : config_.cfg.local_plugins) {
    auto r = plugins::resolve_specifier(spec, home_, config_.paths.dir);
    bool same = false;
    if (r.path) {
      auto real = fs::canonical(*r.path, ec);
      same = !ec && real == p.source_path;
    } else {
      same = r.package == p.package_name;
    }
    if (same) entries.push_back(spec);
  }
  if (entries.empty()) {
    for (const auto& dir : config_.cfg.local_plugin_dirs) {
      auto r = plugins::resolve_specifier(dir, home_, config_.paths.dir);
      if (r.path && fs::canonical(*r.path, ec) == p.source_path.parent_path())
        return invalid("Plugin \"" + p.name + "\" is found through the localPluginDirs entry " + quote_for_error(dir, 200) +
                       "; delete its directory " + p.source_path.string() + " or remove that entry");
    }
    return invalid("Plugin \"" + p.name + "\" was not found in localPlugins in config.json");
  }
  auto w = config_.store.update([entries](json::object& root) -> result<bool> {
    bool changed = false;
    for (const auto& e : entries) changed |= config::remove_from_string_list(root, "localPlugins", e);
    return changed;
  });
  if (!w) return failed(errc::io, "Could not save config.json: " + w.err().message);
  for (const auto& e : entries) log::info("removed " + e + " from localPlugins");
  return true;
}

net::awaitable<result<json::object>> plugin_manager::remove(const json::object& params) {
  auto name = required_string(params, "name", npm::max_package_name_length);
  if (!name) co_return name.err();
  auto p = find_installed(*name);
  if (!p) {
    if (!plugins::is_valid_plugin_name(*name) && !npm::is_valid_package_name(*name))
      co_return invalid("Invalid plugin name: " + quote_for_error(*name, 200) + " is neither a plugin name nor an npm package name");
    co_return invalid("Plugin " + quote_for_error(*name, 200) + " is not currently installed");
  }
  if (!activity_->change.empty())
    co_return failed(errc::busy, "Another plugin operation is in progress (" + activity_->change + "); try again shortly");
  change_slot<activity> slot(activity_, "remove " + p->name);

  if (p->source == "local") {
    auto dropped = drop_local_plugin(*p);
    if (!dropped) co_return dropped.err();
  } else {
    if (!npm::is_plugin_package_name(p->package_name))
      co_return failed(errc::unsupported, "Plugin \"" + p->name + "\" has the package name " + quote_for_error(p->package_name, 200) +
                                             ", which npm cannot uninstall");
    log::info("uninstalling plugin package " + p->package_name + " with npm");
    auto r = co_await run_npm(npm::uninstall_argv(p->package_name), timing_.change, "npm uninstall " + p->package_name);
    if (!r) co_return r.err();
    if (!r->ok())
      co_return npm::failure_error(r->failure, npm::failure_message("uninstall", p->package_name, r->failure));
  }
  forget_update(p->package_name);
  co_await reload_.reload_off_thread(reload_cause::own_change);
  co_await tell_extensions_uninstalled(p->name);
  log::info("plugin \"" + p->name + "\" removed; MCP clients see the new tool list after tools/list_changed");
  co_return json::object{{"ok", true}};
}

net::awaitable<result<json::object>> plugin_manager::remove_by_specifier(const json::object& params) {
  auto spec = required_string(params, "specifier", kMaxPathLength);
  if (!spec) co_return spec.err();
  const plugins::discovery_error* failure = nullptr;
  for (const auto& e : catalog_.discovery_errors)
    if (e.specifier == *spec) failure = &e;
  if (!failure) co_return invalid("No failed plugin has the specifier " + quote_for_error(*spec, 200));
  std::string source = failure->source;
  if (!activity_->change.empty())
    co_return failed(errc::busy, "Another plugin operation is in progress (" + activity_->change + "); try again shortly");
  change_slot<activity> slot(activity_, "remove " + *spec);

  if (source == "npm") {
    if (!npm::is_valid_package_name(*spec))
      co_return invalid("The failed entry " + quote_for_error(*spec, 200) + " is not an npm package; it cannot be removed with npm");
    log::info("uninstalling failed plugin package " + *spec + " with npm");
    auto r = co_await run_npm(npm::uninstall_argv(*spec), timing_.change, "npm uninstall " + *spec);
    if (!r) co_return r.err();
    if (!r->ok()) co_return npm::failure_error(r->failure, npm::failure_message("uninstall", *spec, r->failure));
  } else {
    const auto& cfg = config_.cfg;
    auto in = [&](const std::vector<std::string>& list) { return std::find(list.begin(), list.end(), *spec) != list.end(); };
    std::string list_key = in(cfg.local_plugins) ? "localPlugins" : in(cfg.local_plugin_dirs) ? "localPluginDirs" : "";
    if (list_key.empty())
      co_return invalid("The failed plugin " + quote_for_error(*spec, 200) +
                        " was found through localPluginDirs; delete or fix that directory, or remove its parent from "
                        "localPluginDirs");
    auto w = config_.store.update([list_key, spec = *spec](json::object& root) -> result<bool> {
      return config::remove_from_string_list(root, list_key, spec);
    });
    if (!w) co_return failed(errc::io, "Could not save config.json: " + w.err().message);
    log::info("removed failed plugin " + *spec + " from " + list_key);
  }
  co_await reload_.reload_off_thread(reload_cause::own_change);
  co_return json::object{{"ok", true}};
}

net::awaitable<void> plugin_manager::tell_extensions_uninstalled(std::string plugin) {
  std::vector<net::task_fn> tasks;
  for (auto* c : hub_.connections()) {
    tasks.push_back([this, id = c->id, plugin]() -> net::awaitable<void> {
      request_options o;
      o.connection_id = id;
      o.label = "plugin.uninstall";
      asio::steady_timer limit(ex_, timing_.uninstall_notice);
      json::object params;
      params["name"] = json::str(plugin);
      // caught(): a request that throws ends the race at once instead of waiting out the limit.
      auto r = co_await (net::caught(hub_.request("plugin.uninstall", std::move(params), o)) || limit.async_wait(net::as_value));
      if (r.index() == 1) {
        log::debug("plugin.uninstall " + plugin + ": no answer within " + seconds_text(timing_.uninstall_notice));
        co_return;
      }
      auto reply = std::get<0>(r).take();
      if (reply.outcome != ext_reply::kind::result) log::debug("plugin.uninstall " + plugin + ": " + reply.message);
    });
  }
  std::size_t width = std::max<std::size_t>(1, tasks.size());
  co_await net::run_bounded(ex_, std::move(tasks), width, "plugin management task");
}

// ---- plugin.checkUpdates ----------------------------------------------------------------

namespace {

// One npm plugin's update check: what is installed, and npm's latest version or why there
// is none.
struct update_check {
  std::string package;
  std::string current;
  std::optional<std::string> latest;
  std::string problem;
};

// What a round of checks found: the outdated plugins, the updates to remember (`known`
// entries kept for packages npm could not answer for this time), how many could not be
// checked and the first reason why.
struct update_findings {
  std::vector<outdated_plugin> outdated;
  std::map<std::string, plugins::update_info, std::less<>> found;
  std::size_t unreachable = 0;
  std::string first_problem;
};

update_findings read_update_checks(const std::vector<update_check>& checks,
                                   const std::map<std::string, plugins::update_info, std::less<>>& known) {
  update_findings f;
  for (const auto& c : checks) {
    if (!c.latest) {
      ++f.unreachable;
      if (f.first_problem.empty()) f.first_problem = c.problem;
      // npm could not say this time: what an earlier check found still holds.
      if (auto k = known.find(c.package); k != known.end()) f.found.insert(*k);
      continue;
    }
    if (npm::is_newer(c.current, *c.latest))
      f.outdated.push_back({c.package, c.current, *c.latest, "npm update -g " + c.package});
  }
  for (const auto& o : f.outdated) f.found[o.name] = plugins::update_info{o.latest_version, o.update_command};
  return f;
}

}  // namespace

net::awaitable<result<json::object>> plugin_manager::check_updates() {
  auto checks = std::make_shared<std::vector<update_check>>();
  for (const auto& p : catalog_.plugins)
    if (p.loaded.source == "npm" && npm::is_plugin_package_name(p.loaded.package_name))
      checks->push_back({p.loaded.package_name, p.loaded.version, std::nullopt, {}});
  if (checks->empty()) {
    set_updates({});
    co_return json::object{{"outdatedPlugins", json::array{}}};
  }
  if (activity_->queries >= kMaxQueryOperations)
    co_return failed(errc::busy, "Too many plugin queries at once; try again shortly");
  query_slot<activity> slot(activity_);

  std::vector<net::task_fn> tasks;
  for (std::size_t i = 0; i < checks->size(); ++i) {
    tasks.push_back([this, checks, i]() -> net::awaitable<void> {
      auto& c = (*checks)[i];
      auto r = co_await run_npm(npm::view_version_argv(c.package), timing_.query, "npm view " + c.package);
      if (!r) c.problem = r.err().message;
      else if (!r->ok()) c.problem = npm::failure_message("view", c.package, r->failure);
      else if (!(c.latest = npm::parse_view_version(r->outcome.out))) c.problem = "npm view " + c.package + " printed no version";
    });
  }
  co_await net::run_bounded(ex_, std::move(tasks), kMaxParallelQueries, "npm query");

  auto f = read_update_checks(*checks, catalog_.plugin_updates);
  if (f.unreachable == checks->size())
    co_return failed(errc::io, "Could not check for plugin updates: " + f.first_problem);
  if (f.unreachable > 0)
    log::info("checked " + std::to_string(checks->size() - f.unreachable) + " of " + std::to_string(checks->size()) +
              " npm plugins for updates (" + f.first_problem + ")");
  json::array list;
  for (const auto& o : f.outdated) {
    log::info(o.name + ": " + o.current_version + " → " + o.latest_version + " (run: " + o.update_command + ")");
    list.push_back(json::object{{"name", json::str(o.name)},
                                {"currentVersion", json::str(o.current_version)},
                                {"latestVersion", json::str(o.latest_version)},
                                {"updateCommand", json::str(o.update_command)}});
  }
  set_updates(std::move(f.found));
  co_return json::object{{"outdatedPlugins", std::move(list)}};
}

void plugin_manager::set_updates(std::map<std::string, plugins::update_info, std::less<>> found) {
  if (found == catalog_.plugin_updates) return;
  catalog_.plugin_updates = std::move(found);
  announce_.plugins_changed();
}

void plugin_manager::forget_update(const std::string& package_name) {
  // No announcement: the reload that follows sends the new state anyway.
  catalog_.plugin_updates.erase(package_name);
}

void plugin_manager::start_update_checks() {
  tasks_.spawn(update_check_loop(), "plugin update checks");
}

void plugin_manager::stop() {
  stopping_ = true;
  update_timer_.cancel();
}

net::awaitable<void> plugin_manager::update_check_loop() {
  auto wait = timing_.first_update_check;
  while (!stopping_) {
    update_timer_.expires_after(wait);
    auto [ec] = co_await update_timer_.async_wait(net::as_value);
    if (ec || stopping_) break;
    const auto minutes = config_.cfg.update_check_interval_minutes;
    if (minutes <= 0) {
      wait = std::chrono::minutes(1);  // paused: look at the config again in a minute
      continue;
    }
    wait = timing_.update_interval ? *timing_.update_interval : std::chrono::milliseconds(std::chrono::minutes(minutes));
    auto checked = co_await check_updates();
    if (!checked) log::debug("plugin update check: " + checked.err().message);
  }
}

// ---- folder.open ------------------------------------------------------------------------

net::awaitable<result<json::object>> plugin_manager::open_folder(const json::object& params) {
  auto path = required_string(params, "path", kMaxPathLength);
  if (!path) co_return path.err();
  fs::path dir(*path);
  if (!dir.is_absolute()) co_return invalid("Invalid params: path must be an absolute path");
  std::error_code ec;
  auto st = fs::status(dir, ec);
  if (ec || !fs::exists(st)) co_return failed(errc::io, "Folder does not exist: " + dir.string());
  if (!fs::is_directory(st)) co_return failed(errc::io, "Not a folder: " + dir.string());
  auto real = fs::canonical(dir, ec);
  if (ec) co_return failed(errc::io, "Cannot resolve folder " + dir.string() + ": " + ec.message());
  if (activity_->queries >= kMaxQueryOperations) co_return failed(errc::busy, "Too many requests at once; try again shortly");
  query_slot<activity> slot(activity_);

  // OPENTABS_FOLDER_OPENER: test knob (there is no desktop in CI); default xdg-open / open.
  const char* knob = std::getenv("OPENTABS_FOLDER_OPENER");
  std::string opener = knob && *knob ? knob : std::string(platform::folder_opener(platform::current_os()));
  process_options o;
  o.timeout = timing_.query;
  o.max_output_bytes = 64 * 1024;
  o.kill_on_timeout = false;  // a launcher still running is a launcher that worked
  std::vector<std::string> argv;  // named, not braced inside the co_await (GCC 12: net/asio.hpp)
  argv.push_back(opener);
  argv.push_back(real.string());
  auto r = co_await run_process(tasks_, std::move(argv), o);
  if (!r) {
    if (r.err().is(errc::not_found))
      co_return failed(errc::io, "Cannot open folders on this machine: " + opener + " is not installed");
    co_return failed(errc::io, r.err().message);
  }
  if (!r->timed_out && r->exit_code != 0) {
    std::string why(trim(r->err));
    if (auto nl = why.find('\n'); nl != std::string::npos) why.resize(nl);
    if (why.size() > 300) why.resize(300);
    co_return failed(errc::io, opener + " could not open " + real.string() + " (exit " +
                                        std::to_string(r->exit_code) + (why.empty() ? ")" : "): " + why));
  }
  co_return json::object{{"ok", true}};
}

}  // namespace opentabs::app
