// The tools the server offers right now, in tools/list order (plugin tools, browser tools,
// platform tools, then the WebMCP tools pages publish), with name lookup that accepts the seed's `<plugin>_<tool>` and the
// spec's `<plugin>__<tool>`.  Rebuilt as a whole on every reload (an atomic swap: callers
// never see half a tool set); `generation` tells caches when to refresh.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tools/tool.hpp"
#include "util/string_keyed.hpp"

namespace opentabs::app {

class tool_registry {
 public:
  using tool_ptr = std::shared_ptr<const tools::tool_def>;

  void rebuild(std::vector<tools::tool_def> plugin_tools, const std::vector<tools::tool_def>& browser_tools,
               std::vector<tools::tool_def> platform_tools);

  // The WebMCP tools change between reloads (pages come and go): replaces just that part
  // and keeps it across rebuild().
  void set_webmcp_tools(std::vector<tools::tool_def> webmcp_tools);

  // Shared so that a call in flight keeps its tool alive across a reload.
  tool_ptr find(std::string_view name) const;
  const std::vector<tool_ptr>& all() const { return tools_; }
  std::size_t plugin_tool_count() const { return plugin_count_; }
  std::size_t browser_tool_count() const { return browser_count_; }
  std::uint64_t generation() const { return generation_; }
  // The closest known names to `name`, for "did you mean" hints.
  std::vector<std::string> similar_names(std::string_view name, std::size_t max = 3) const;

 private:
  void reindex();

  std::vector<tool_ptr> tools_;
  std::size_t webmcp_begin_ = 0;  // tools_[webmcp_begin_..] are the WebMCP tools
  string_map<std::size_t> by_name_;
  std::size_t plugin_count_ = 0;
  std::size_t browser_count_ = 0;
  std::uint64_t generation_ = 0;
};

}  // namespace opentabs::app
