#include "app/dispatch_table.hpp"

#include <algorithm>

namespace opentabs::app {

bool dispatch_table::add(const std::string& id, std::string connection_id, std::string plugin, std::string label,
                         clock_type::time_point now) {
  record r;
  r.connection_id = std::move(connection_id);
  r.plugin = std::move(plugin);
  r.label = std::move(label);
  r.started = now;
  r.cap = now + timing_.cap;
  r.timeout = timing_.timeout;
  r.deadline = std::min(now + timing_.timeout, r.cap);
  return records_.emplace(id, std::move(r)).second;
}

bool dispatch_table::settle(std::string_view id, ext_reply reply) {
  auto it = records_.find(id);
  if (it == records_.end() || it->second.outcome) return false;
  it->second.outcome = std::move(reply);
  return true;
}

bool dispatch_table::progress(std::string_view id, clock_type::time_point now) {
  auto it = records_.find(id);
  if (it == records_.end() || it->second.outcome) return false;
  it->second.deadline = std::min(now + timing_.timeout, it->second.cap);
  return true;
}

std::vector<std::string> dispatch_table::fail_connection(const std::string& connection_id, const std::string& message) {
  std::vector<std::string> ids;
  for (auto& [id, r] : records_) {
    if (r.outcome || r.connection_id != connection_id) continue;
    ext_reply rep;
    rep.outcome = ext_reply::kind::disconnected;
    rep.message = message;
    r.outcome = std::move(rep);
    ids.push_back(id);
  }
  return ids;
}

std::vector<std::string> dispatch_table::fail_all(ext_reply::kind kind, const std::string& message) {
  std::vector<std::string> ids;
  for (auto& [id, r] : records_) {
    if (r.outcome) continue;
    ext_reply rep;
    rep.outcome = kind;
    rep.message = message;
    r.outcome = std::move(rep);
    ids.push_back(id);
  }
  return ids;
}

bool dispatch_table::expire_if_due(std::string_view id, clock_type::time_point now) {
  auto it = records_.find(id);
  if (it == records_.end() || it->second.outcome || now < it->second.deadline) return false;
  auto& r = it->second;
  ext_reply rep;
  rep.outcome = ext_reply::kind::timeout;
  // The original's wording, with the configured timeout (progress may have extended it).
  rep.message = "Dispatch " + r.label + " timed out after " +
                std::to_string(now >= r.cap ? std::chrono::duration_cast<std::chrono::milliseconds>(timing_.cap).count()
                                            : std::max<std::int64_t>(r.timeout.count(), 0)) +
                "ms";
  r.outcome = std::move(rep);
  return true;
}

const dispatch_table::record* dispatch_table::find(std::string_view id) const {
  auto it = records_.find(id);
  return it == records_.end() ? nullptr : &it->second;
}

std::optional<ext_reply> dispatch_table::take(std::string_view id) {
  auto it = records_.find(id);
  if (it == records_.end() || !it->second.outcome) return std::nullopt;
  auto out = std::move(it->second.outcome);
  records_.erase(it);
  return out;
}

std::size_t dispatch_table::open_count() const {
  return static_cast<std::size_t>(std::count_if(records_.begin(), records_.end(), [](const auto& kv) { return !kv.second.outcome; }));
}

std::size_t dispatch_table::open_for_plugin(const std::string& plugin) const {
  return static_cast<std::size_t>(std::count_if(records_.begin(), records_.end(), [&](const auto& kv) {
    return !kv.second.outcome && kv.second.plugin == plugin;
  }));
}

}  // namespace opentabs::app
