#include "app/webmcp_directory.hpp"

#include <algorithm>

#include "app/webmcp_naming.hpp"
#include "schema/lazy_validator.hpp"
#include "util/strings.hpp"

namespace opentabs::app {
namespace {

error invalid(std::string message) { return make_error(errc::invalid_params, std::move(message)); }

bool valid_document_id(std::string_view s) {
  if (s.size() > 128) return false;
  for (char c : s)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
      return false;
  return true;
}

// One tool's inputSchema from a page → its serialized size and the schema object, or the
// reason it was refused.
result<std::pair<std::size_t, json::object>> checked_schema(const json::value* raw, const webmcp_limits& lim) {
  json::object schema;
  if (!raw || raw->is_null()) {
    schema = json::object{{"type", "object"}, {"properties", json::object()}};
  } else if (raw->is_string()) {
    // Native Chrome hands schemas around as JSON text.
    if (raw->get_string().size() > lim.max_schema_bytes)
      return invalid("inputSchema is larger than " + std::to_string(lim.max_schema_bytes) + " bytes");
    auto parsed = json::parse_object(std::string_view(raw->get_string()), json::parse_limits{lim.max_schema_bytes, 32});
    if (!parsed) return invalid("inputSchema is not valid JSON: " + parsed.err().message);
    schema = std::move(*parsed);
  } else if (raw->is_object()) {
    schema = raw->get_object();
  } else {
    return invalid("inputSchema must be a JSON Schema object, got " + std::string(json::type_name(*raw)));
  }
  std::size_t bytes = json::dump(schema).size();
  if (bytes > lim.max_schema_bytes)
    return invalid("inputSchema is larger than " + std::to_string(lim.max_schema_bytes) + " bytes");
  if (const auto* type = json::find(schema, "type")) {
    if (!type->is_string() || type->get_string() != "object")
      return invalid("inputSchema must describe an object (\"type\": \"object\")");
  } else {
    schema["type"] = "object";
  }
  return std::pair<std::size_t, json::object>{bytes, std::move(schema)};
}

}  // namespace

schema::limits webmcp_limits::schema_limits() const {
  schema::limits lim;
  lim.max_schema_bytes = max_schema_bytes;
  lim.max_schema_depth = 32;
  lim.max_schema_nodes = max_schema_nodes;
  lim.max_pattern_length = max_pattern_length;
  lim.max_patterns = max_patterns_per_schema;
  lim.max_pattern_program_size = max_pattern_program_size;
  lim.max_total_program_size = max_total_program_size;
  return lim;
}

std::pair<std::size_t, std::size_t> webmcp_directory::page_usage(const frame_key& key) const {
  std::size_t tools = 0, bytes = 0;
  for (const auto& [k, frame] : frames_) {
    if (std::get<0>(k) != std::get<0>(key) || std::get<1>(k) != std::get<1>(key) || k == key) continue;
    tools += frame.tools.size();
    for (const auto& t : frame.tools) bytes += t.schema_bytes;
  }
  return {tools, bytes};
}

std::size_t webmcp_directory::connection_tool_count(const std::string& connection_id, const frame_key* except) const {
  std::size_t n = 0;
  for (const auto& [key, frame] : frames_)
    if (std::get<0>(key) == connection_id && (!except || key != *except)) n += frame.tools.size();
  return n;
}

std::string webmcp_directory::fingerprint(const std::string& connection_id) const {
  // Order-independent: a page that re-registers the same tools in another order changed nothing.
  std::vector<std::string> parts;
  for (const auto& [key, frame] : frames_) {
    if (std::get<0>(key) != connection_id) continue;
    for (const auto& t : frame.tools)
      parts.push_back(t.mcp_name + '\x1f' + t.title + '\x1f' + t.description + '\x1f' + json::dump(t.schema->schema));
  }
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) out += p + '\x1e';
  return out;
}

void webmcp_directory::reindex() {
  by_name_.clear();
  for (const auto& [key, frame] : frames_)
    for (std::size_t i = 0; i < frame.tools.size(); ++i) by_name_.emplace(frame.tools[i].mcp_name, std::pair{key, i});
}

namespace {

// The frame a webmcp.frameTools report is about, checked.
struct frame_report {
  std::int64_t tab = 0;
  std::int64_t frame = 0;
  std::string document_id;
  std::string url;
  std::string site;
  const json::array* tools = nullptr;
};

result<frame_report> read_frame_report(const json::object& params, const webmcp_limits& limits) {
  frame_report r;
  auto tab = json::get_int(params, "tabId");
  if (!tab || *tab < 0) return invalid("tabId must be a non-negative integer");
  r.tab = *tab;
  auto frame_id = json::get_int(params, "frameId");
  if (!frame_id || *frame_id < 0) return invalid("frameId must be a non-negative integer");
  r.frame = *frame_id;
  if (const auto* d = json::find(params, "documentId"); d && !d->is_null()) {
    if (!d->is_string() || !valid_document_id(std::string_view(d->get_string())))
      return invalid("documentId must be a string of at most 128 letters, digits, '-' or '_'");
    r.document_id = std::string(d->get_string());
  }
  const auto* url = json::get_string(params, "url");
  if (!url) return invalid("url must be a string");
  if (url->size() > limits.max_url_chars) return invalid("url is longer than " + std::to_string(limits.max_url_chars) + " characters");
  auto site = webmcp::site_of_url(std::string_view(*url));
  if (!site) return invalid("url must be an http(s) URL with a host");
  r.url = std::string(*url);
  r.site = *site;
  r.tools = json::get_array(params, "tools");
  if (!r.tools) return invalid("tools must be an array");
  return r;
}

}  // namespace

result<webmcp_update> webmcp_directory::replace_frame(const std::string& connection_id, const json::object& params) {
  auto report = read_frame_report(params, limits_);
  if (!report) return report.err();
  frame_key key{connection_id, report->tab, report->frame};
  auto existing = frames_.find(key);
  if (existing == frames_.end() && !report->tools->empty()) {
    std::size_t frames_in_tab = 0;
    for (const auto& [k, f] : frames_)
      if (std::get<0>(k) == connection_id && std::get<1>(k) == report->tab) ++frames_in_tab;
    if (frames_in_tab >= limits_.max_frames_per_tab)
      return invalid("too many frames with WebMCP tools in tab " + std::to_string(report->tab) + " (limit " +
                     std::to_string(limits_.max_frames_per_tab) + ")");
  }
  auto before = fingerprint(connection_id);

  frame_entry next;
  next.document_id = report->document_id;
  next.url = report->url;
  next.site = report->site;
  next.slug = webmcp::site_slug(report->site);
  // A new document in the same frame keeps nothing from the old one: names are reused only
  // while the same document re-reports.
  const frame_entry* previous =
      existing != frames_.end() && existing->second.document_id == report->document_id ? &existing->second : nullptr;
  webmcp_update update;
  take_tools(key, *report->tools, previous, next, update);
  if (next.tools.empty()) {
    if (existing != frames_.end()) frames_.erase(existing);
  } else {
    frames_[key] = std::move(next);
  }
  reindex();
  update.changed = fingerprint(connection_id) != before;
  return update;
}

void webmcp_directory::take_tools(const frame_key& key, const json::array& list, const frame_entry* previous, frame_entry& next,
                                  webmcp_update& update) const {
  const std::string& connection_id = std::get<0>(key);
  std::size_t budget_left = limits_.max_tools_per_connection - std::min(limits_.max_tools_per_connection, connection_tool_count(connection_id, &key));
  auto [page_tools, page_bytes] = page_usage(key);
  std::size_t page_tools_left = limits_.max_tools_per_page - std::min(limits_.max_tools_per_page, page_tools);
  std::set<std::string> seen, assigned;
  std::size_t overflow = 0;
  std::string overflow_reason;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto* obj = list[i].if_object();
    std::string label = "#" + std::to_string(i);
    if (obj)
      if (const auto* n = json::get_string(*obj, "name")) label = excerpt_for_error(*n, 80);
    if (next.tools.size() >= limits_.max_tools_per_frame || next.tools.size() >= budget_left ||
        next.tools.size() >= page_tools_left) {
      ++overflow;
      overflow_reason = next.tools.size() >= limits_.max_tools_per_frame
                            ? "too many tools in one frame (limit " + std::to_string(limits_.max_tools_per_frame) + ")"
                        : next.tools.size() >= page_tools_left
                            ? "too many WebMCP tools on this page (limit " + std::to_string(limits_.max_tools_per_page) +
                                  " per tab)"
                            : "too many WebMCP tools in this browser (limit " +
                                  std::to_string(limits_.max_tools_per_connection) + ")";
      continue;
    }
    if (!obj) {
      update.rejected.push_back({label, "tool descriptor must be an object"});
      continue;
    }
    if (const auto* name = json::get_string(*obj, "name"); name && !name->empty() && webmcp::valid_tool_name(*name) &&
                                                          !seen.insert(std::string(*name)).second) {
      update.rejected.push_back({label, "duplicate name in this frame"});
      continue;
    }
    auto entry = read_tool(*obj, previous, page_bytes);
    if (!entry) {
      update.rejected.push_back({label, entry.err().message});
      continue;
    }
    entry->mcp_name = mcp_name_for(key, next, previous, entry->name, assigned);
    assigned.insert(entry->mcp_name);
    update.accepted.emplace_back(entry->name, entry->mcp_name);
    next.tools.push_back(std::move(*entry));
  }
  if (overflow > 0) update.rejected.push_back({std::to_string(overflow) + " more tool(s)", overflow_reason});
}

result<webmcp_directory::tool_entry> webmcp_directory::read_tool(const json::object& obj, const frame_entry* previous,
                                                                 std::size_t& page_bytes) const {
  const auto* name = json::get_string(obj, "name");
  if (!name || name->empty()) return invalid("missing name");
  if (!webmcp::valid_tool_name(*name)) return invalid("invalid name: use 1-128 characters from A-Z a-z 0-9 _ . -");
  const auto* desc = json::get_string(obj, "description");
  if (!desc || desc->empty()) return invalid("missing description");
  if (desc->size() > limits_.max_description_chars)
    return invalid("description longer than " + std::to_string(limits_.max_description_chars) + " characters");
  tool_entry entry;
  if (const auto* t = json::find(obj, "title"); t && !t->is_null()) {
    if (!t->is_string() || t->get_string().size() > limits_.max_title_chars)
      return invalid("title must be a string of at most " + std::to_string(limits_.max_title_chars) + " characters");
    entry.title = std::string(t->get_string());
  }
  auto schema = checked_schema(json::find(obj, "inputSchema"), limits_);
  if (!schema) return schema.err();
  if (page_bytes + schema->first > limits_.max_schema_bytes_per_page)
    return invalid("the inputSchemas of this page's WebMCP tools exceed " + std::to_string(limits_.max_schema_bytes_per_page) +
                   " bytes in total");
  // Not compiled here (see the header): a re-report of the same document with the same
  // schema keeps the slot, and with it whatever compiling it gave.
  std::shared_ptr<webmcp_schema> slot;
  if (previous)
    for (const auto& t : previous->tools)
      if (t.name == *name && t.schema->schema == schema->second) slot = t.schema;
  if (!slot) {
    slot = std::make_shared<webmcp_schema>();
    slot->schema = std::move(schema->second);
    slot->limits = limits_.schema_limits();
  }
  page_bytes += schema->first;
  entry.name = std::string(*name);
  entry.description = std::string(*desc);
  entry.schema = std::move(slot);
  entry.schema_bytes = schema->first;
  if (const auto* ann = json::get_object(obj, "annotations")) entry.read_only = json::get_bool(*ann, "readOnlyHint").value_or(false);
  return entry;
}

// Stable names: a tool the same document reported before keeps its name; otherwise the
// plain `webmcp_<site>_<tool>` if free, else one qualified by tab (and frame).
std::string webmcp_directory::mcp_name_for(const frame_key& key, const frame_entry& next, const frame_entry* previous,
                                           const std::string& name, const std::set<std::string>& assigned) const {
  std::string mcp_name;
  if (previous)
    for (const auto& t : previous->tools)
      if (t.name == name) mcp_name = t.mcp_name;
  auto taken = [&](const std::string& n) {
    if (assigned.count(n)) return true;
    auto it = by_name_.find(n);
    return it != by_name_.end() && it->second.first != key;
  };
  if (!mcp_name.empty() && !taken(mcp_name)) return mcp_name;
  mcp_name = webmcp::mcp_tool_name(next.slug, name);
  if (!taken(mcp_name)) return mcp_name;
  std::string suffix = "_t" + std::to_string(std::get<1>(key));
  if (std::get<2>(key) != 0) suffix += "f" + std::to_string(std::get<2>(key));
  mcp_name = webmcp::mcp_tool_name(next.slug, name, suffix);
  for (int n = 2; taken(mcp_name); ++n) mcp_name = webmcp::mcp_tool_name(next.slug, name, suffix + "_" + std::to_string(n));
  return mcp_name;
}

result<webmcp_update> webmcp_directory::sync_all(const std::string& connection_id, const json::object& params) {
  const auto* list = json::get_array(params, "frames");
  if (!list) return invalid("frames must be an array");
  auto before = fingerprint(connection_id);
  for (auto it = frames_.begin(); it != frames_.end();) {
    if (std::get<0>(it->first) == connection_id) it = frames_.erase(it);
    else ++it;
  }
  reindex();
  webmcp_update total;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const auto* frame = (*list)[i].if_object();
    if (!frame) {
      total.rejected.push_back({"frames[" + std::to_string(i) + "]", "must be an object"});
      continue;
    }
    auto one = replace_frame(connection_id, *frame);
    if (!one) {
      total.rejected.push_back({"frames[" + std::to_string(i) + "]", one.err().message});
      continue;
    }
    for (auto& a : one->accepted) total.accepted.push_back(std::move(a));
    for (auto& r : one->rejected) total.rejected.push_back(std::move(r));
  }
  total.changed = fingerprint(connection_id) != before;
  return total;
}

bool webmcp_directory::remove_tab(const std::string& connection_id, std::int64_t tab_id) {
  bool removed = false;
  for (auto it = frames_.begin(); it != frames_.end();) {
    if (std::get<0>(it->first) == connection_id && std::get<1>(it->first) == tab_id) {
      removed = removed || !it->second.tools.empty();
      it = frames_.erase(it);
    } else {
      ++it;
    }
  }
  if (removed) reindex();
  return removed;
}

bool webmcp_directory::remove_connection(const std::string& connection_id) {
  bool removed = false;
  for (auto it = frames_.begin(); it != frames_.end();) {
    if (std::get<0>(it->first) == connection_id) {
      removed = true;
      it = frames_.erase(it);
    } else {
      ++it;
    }
  }
  if (removed) reindex();
  return removed;
}

std::optional<webmcp_target> webmcp_directory::find(std::string_view mcp_name) const {
  auto it = by_name_.find(mcp_name);
  if (it == by_name_.end()) return std::nullopt;
  const auto& [key, index] = it->second;
  const auto& frame = frames_.at(key);
  return webmcp_target{std::get<0>(key), std::get<1>(key), std::get<2>(key), frame.document_id,
                       frame.tools[index].name, frame.site, frame.url};
}

std::shared_ptr<webmcp_schema> webmcp_directory::schema_of(std::string_view mcp_name) const {
  auto it = by_name_.find(mcp_name);
  if (it == by_name_.end()) return nullptr;
  return frames_.at(it->second.first).tools[it->second.second].schema;
}

std::vector<tools::tool_def> webmcp_directory::tool_defs() const {
  std::vector<tools::tool_def> out;
  out.reserve(by_name_.size());
  for (const auto& [name, where] : by_name_) {
    const auto& frame = frames_.at(where.first);
    const auto& t = frame.tools[where.second];
    tools::tool_def d;
    d.name = t.mcp_name;
    d.plugin = webmcp::permission_key(frame.slug);
    d.base_name = t.name;
    d.kind = tools::tool_kind::webmcp;
    d.display_name = t.title.empty() ? t.name : t.title;
    // Provenance after the page's own words: the description is page content, not ours.
    d.description = t.description + "\n\n(WebMCP tool published by the web page " + frame.site + " in browser tab " +
                    std::to_string(std::get<1>(where.first)) + (t.read_only ? "; the page marks it read-only" : "") + ".)";
    d.group = frame.site;
    d.input_schema = t.schema->schema;
    // Null until a call compiled it (webmcp_bridge, on the blocking pool).
    if (t.schema->validator) d.validator = std::make_shared<const schema::lazy_validator>(t.schema->validator);
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<webmcp_site> webmcp_directory::sites() const {
  std::map<std::string, webmcp_site> by_key;
  for (const auto& [key, frame] : frames_) {
    auto k = webmcp::permission_key(frame.slug);
    auto& s = by_key[k];
    s.key = k;
    s.site = frame.site;
    if (std::find(s.tabs.begin(), s.tabs.end(), std::get<1>(key)) == s.tabs.end()) s.tabs.push_back(std::get<1>(key));
    for (const auto& t : frame.tools) {
      s.tools.push_back(t.name);
      s.mcp_names.push_back(t.mcp_name);
    }
  }
  std::vector<webmcp_site> out;
  for (auto& [k, s] : by_key) {
    std::sort(s.tools.begin(), s.tools.end());
    s.tools.erase(std::unique(s.tools.begin(), s.tools.end()), s.tools.end());
    std::sort(s.mcp_names.begin(), s.mcp_names.end());
    std::sort(s.tabs.begin(), s.tabs.end());
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace opentabs::app
