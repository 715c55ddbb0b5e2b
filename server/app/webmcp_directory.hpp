// Which WebMCP tools the connected browsers' pages publish right now: per connection, tab
// and frame, the validated tool descriptors the extension reported (webmcp.frameTools,
// webmcp.syncAll, webmcp.tabRemoved; extension/PROTOCOL-WEBMCP.md), their stable MCP names
// and where a call must go.  Sans-I/O: the bridge feeds it reports and turns its tool list
// into registry entries.  Every report is bounded (tools per frame, per page (tab) and per
// connection, frames per tab, text and schema sizes, schema bytes per page).  A schema is
// not compiled here: a page needs no permission to register tools, so its schemas are
// compiled only when a call of the tool got past the permission gate (the user enabled the
// site), on a worker thread (webmcp_bridge::validator_for), once per registration.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "json/json.hpp"
#include "schema/validator.hpp"
#include "tools/tool.hpp"
#include "util/result.hpp"

namespace opentabs::app {

struct webmcp_limits {
  std::size_t max_tools_per_frame = 100;
  std::size_t max_frames_per_tab = 32;
  std::size_t max_tools_per_connection = 1000;
  std::size_t max_title_chars = 256;
  std::size_t max_description_chars = 8 * 1024;
  std::size_t max_schema_bytes = 64 * 1024;
  std::size_t max_schema_nodes = 600;
  std::size_t max_url_chars = 8 * 1024;
  // One page (a tab with its frames): tools, and the serialized bytes of their schemas.
  std::size_t max_tools_per_page = 200;
  std::size_t max_schema_bytes_per_page = 512 * 1024;
  // `pattern`s and patternProperties keys per schema, and RE2 instructions per pattern:
  // with the node and byte caps they bound one schema's compile to milliseconds.
  std::size_t max_patterns_per_schema = 64;
  std::size_t max_pattern_program_size = 10'000;
  std::size_t max_total_program_size = 50'000;  // all patterns of one schema
  std::size_t max_pattern_length = 1024;

  // What a page tool's schema is compiled with.
  schema::limits schema_limits() const;
};

// A page tool's inputSchema and, once a call needed it, what compiling it gave.  Shared by
// re-reports of the same document that keep the same schema, so it compiles at most once.
// `schema` and `limits` never change after registration (a worker thread reads them while
// compiling); the outcome fields are written on the io thread only.
struct webmcp_schema {
  json::object schema;
  schema::limits limits;
  bool compiled = false;
  std::shared_ptr<const schema::validator> validator;  // null until compiled, or when refused
  std::string error;                                   // why it was refused
};

struct webmcp_rejected {
  std::string name;  // as reported (shortened for display)
  std::string reason;
};

// What one report did: tool name → MCP name for the accepted tools, reasons for the others.
struct webmcp_update {
  std::vector<std::pair<std::string, std::string>> accepted;
  std::vector<webmcp_rejected> rejected;
  bool changed = false;  // the set of MCP tools (or their definitions) changed
};

// Where a call of one MCP tool goes.
struct webmcp_target {
  std::string connection_id;
  std::int64_t tab_id = 0;
  std::int64_t frame_id = 0;
  std::string document_id;
  std::string tool;   // the page's own name
  std::string site;   // "host[:port]"
  std::string url;
};

// One site in the side panel: its permission key and what it publishes.
struct webmcp_site {
  std::string key;   // "webmcp:<slug>"
  std::string site;  // "host[:port]"
  std::vector<std::int64_t> tabs;
  std::vector<std::string> tools;      // page names, sorted, unique
  std::vector<std::string> mcp_names;  // sorted
};

class webmcp_directory {
 public:
  explicit webmcp_directory(webmcp_limits limits = {}) : limits_(limits) {}

  // webmcp.frameTools: replaces the tools of one frame.  Errors (code "invalid_params") name
  // the malformed field; a bad tool is rejected alone, with its reason in the update.
  result<webmcp_update> replace_frame(const std::string& connection_id, const json::object& params);
  // webmcp.syncAll: replaces everything the connection reported before.
  result<webmcp_update> sync_all(const std::string& connection_id, const json::object& params);
  // webmcp.tabRemoved / a closed connection: true when tools went away.
  bool remove_tab(const std::string& connection_id, std::int64_t tab_id);
  bool remove_connection(const std::string& connection_id);

  std::optional<webmcp_target> find(std::string_view mcp_name) const;
  // The schema slot of a tool (for compiling it on first use); null when it is gone.
  std::shared_ptr<webmcp_schema> schema_of(std::string_view mcp_name) const;
  // Registry entries for every tool, sorted by MCP name.
  std::vector<tools::tool_def> tool_defs() const;
  std::vector<webmcp_site> sites() const;
  std::size_t tool_count() const { return by_name_.size(); }
  const webmcp_limits& limits() const { return limits_; }

 private:
  struct tool_entry {
    std::string name;
    std::string title;
    std::string description;
    std::shared_ptr<webmcp_schema> schema;  // never null
    std::size_t schema_bytes = 0;           // serialized size, counted against the page's budget
    bool read_only = false;
    std::string mcp_name;
  };
  struct frame_entry {
    std::string document_id;
    std::string url;
    std::string site;
    std::string slug;
    std::vector<tool_entry> tools;
  };
  using frame_key = std::tuple<std::string, std::int64_t, std::int64_t>;  // connection, tab, frame

  std::size_t connection_tool_count(const std::string& connection_id, const frame_key* except) const;
  // Tools and schema bytes of the other frames of a tab.
  std::pair<std::size_t, std::size_t> page_usage(const frame_key& key) const;
  // Fingerprint of a connection's tools (names and definitions), to tell whether a
  // report changed anything a client can see.
  std::string fingerprint(const std::string& connection_id) const;
  void reindex();
  // replace_frame's steps: the reported tools that fit the limits into `next` (the others
  // into update.rejected); one tool checked (an error is its rejection reason); its MCP name.
  void take_tools(const frame_key& key, const json::array& list, const frame_entry* previous, frame_entry& next,
                  webmcp_update& update) const;
  result<tool_entry> read_tool(const json::object& obj, const frame_entry* previous, std::size_t& page_bytes) const;
  std::string mcp_name_for(const frame_key& key, const frame_entry& next, const frame_entry* previous, const std::string& name,
                           const std::set<std::string>& assigned) const;

  webmcp_limits limits_;
  std::map<frame_key, frame_entry> frames_;
  std::map<std::string, std::pair<frame_key, std::size_t>, std::less<>> by_name_;
};

}  // namespace opentabs::app
