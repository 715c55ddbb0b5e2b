#include "app/client_tabs.hpp"

#include <algorithm>

namespace opentabs::app {

void client_tabs::touched(std::string_view client, std::int64_t tab_id) {
  if (client.empty()) return;
  std::string name(client.substr(0, max_name));
  closed(tab_id);
  if (auto it = std::find(names_.begin(), names_.end(), name); it != names_.end()) names_.erase(it);
  if (names_.size() == max_clients) {
    const std::string gone = names_.front();
    names_.erase(names_.begin());
    std::erase_if(tabs_, [&](const held& h) { return h.client == gone; });
  }
  names_.push_back(name);
  if (tabs_.size() == max_tabs) tabs_.erase(tabs_.begin());
  tabs_.push_back(held{tab_id, std::move(name)});
}

void client_tabs::closed(std::int64_t tab_id) {
  std::erase_if(tabs_, [&](const held& h) { return h.tab_id == tab_id; });
}

void client_tabs::ended(std::string_view client) {
  const auto name = client.substr(0, max_name);
  std::erase_if(tabs_, [&](const held& h) { return h.client == name; });
  std::erase_if(names_, [&](const std::string& n) { return n == name; });
}

json::array client_tabs::to_json() const {
  json::array out;
  for (const auto& name : names_) {
    json::array ids;
    for (const auto& h : tabs_)
      if (h.client == name) ids.push_back(h.tab_id);
    out.push_back(json::object{{"client", json::str(name)}, {"tabs", std::move(ids)}});
  }
  return out;
}

}  // namespace opentabs::app
