#include "app/tool_registry.hpp"

#include <algorithm>

#include "util/strings.hpp"

namespace opentabs::app {

void tool_registry::rebuild(std::vector<tools::tool_def> plugin_tools, const std::vector<tools::tool_def>& browser_tools,
                            std::vector<tools::tool_def> platform_tools) {
  std::vector<tool_ptr> next;
  std::vector<tool_ptr> webmcp(tools_.begin() + static_cast<std::ptrdiff_t>(std::min(webmcp_begin_, tools_.size())), tools_.end());
  next.reserve(plugin_tools.size() + browser_tools.size() + platform_tools.size() + webmcp.size());
  for (auto& t : plugin_tools) next.push_back(std::make_shared<const tools::tool_def>(std::move(t)));
  // The browser catalog lives for the whole program: share it without copying.
  for (const auto& t : browser_tools) next.push_back(tool_ptr(tool_ptr(), &t));
  for (auto& t : platform_tools) next.push_back(std::make_shared<const tools::tool_def>(std::move(t)));
  webmcp_begin_ = next.size();
  for (auto& t : webmcp) next.push_back(std::move(t));
  plugin_count_ = plugin_tools.size();
  browser_count_ = browser_tools.size();
  tools_ = std::move(next);
  reindex();
}

void tool_registry::set_webmcp_tools(std::vector<tools::tool_def> webmcp_tools) {
  tools_.resize(std::min(webmcp_begin_, tools_.size()));
  webmcp_begin_ = tools_.size();
  for (auto& t : webmcp_tools) tools_.push_back(std::make_shared<const tools::tool_def>(std::move(t)));
  reindex();
}

void tool_registry::reindex() {
  string_map<std::size_t> index;
  index.reserve(tools_.size() * 2);
  for (std::size_t i = 0; i < tools_.size(); ++i) {
    const auto& t = *tools_[i];
    index.emplace(t.name, i);
    // Both spellings of a plugin tool resolve to it, whichever one toolNames lists.
    if (t.kind == tools::tool_kind::plugin) {
      index.emplace(t.plugin + "__" + t.base_name, i);
      index.emplace(t.plugin + "_" + t.base_name, i);
    }
  }
  by_name_ = std::move(index);
  ++generation_;
}

tool_registry::tool_ptr tool_registry::find(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : tools_[it->second];
}

std::vector<std::string> tool_registry::similar_names(std::string_view name, std::size_t max) const {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& t : tools_) {
    auto d = edit_distance(name, t->name);
    if (d <= std::max<std::size_t>(3, name.size() / 3)) scored.emplace_back(d, t->name);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (auto& [d, n] : scored) {
    if (out.size() >= max) break;
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace opentabs::app
