#include "app/fan_out_results.hpp"

#include <algorithm>

namespace opentabs::app {

namespace {

std::string failure_text(const ext_reply& reply) { return reply.message.empty() ? "no answer" : reply.message; }

json::object failed(const profile_answer& a) {
  return json::object{{"connectionId", json::str(a.connection_id)}, {"error", json::str(failure_text(a.reply))}};
}

// {connectionId, ...state}: the server's connectionId first and authoritative.
json::value merge_state(const std::vector<profile_answer>& answers) {
  json::array connections;
  for (const auto& a : answers) {
    if (!a.reply.ok()) {
      connections.push_back(failed(a));
      continue;
    }
    json::object entry{{"connectionId", json::str(a.connection_id)}};
    if (const auto* o = a.reply.result.if_object()) {
      for (const auto& kv : *o)
        if (kv.key() != "connectionId") entry[kv.key()] = kv.value();
    } else if (!a.reply.result.is_null()) {
      entry["result"] = a.reply.result;
    }
    connections.push_back(std::move(entry));
  }
  return json::object{{"connections", std::move(connections)}};
}

double entry_time(const json::value& v) {
  const auto* o = v.if_object();
  if (!o) return 0;
  if (auto t = json::get_number(*o, "timestamp")) return *t;
  return json::get_number(*o, "ts").value_or(0);
}

json::value merge_logs(const std::vector<profile_answer>& answers) {
  json::array entries;
  json::array connections;
  double total_background = 0, total_offscreen = 0, buffer_size = 0;
  for (const auto& a : answers) {
    if (!a.reply.ok()) {
      connections.push_back(failed(a));
      continue;
    }
    json::object detail{{"connectionId", json::str(a.connection_id)}};
    if (const auto* o = a.reply.result.if_object()) {
      if (const auto* list = json::get_array(*o, "entries")) {
        for (const auto& e : *list) {
          if (!e.is_object()) continue;
          json::object tagged = e.get_object();
          tagged["connectionId"] = json::str(a.connection_id);
          entries.push_back(std::move(tagged));
        }
      }
      if (const auto* stats = json::get_object(*o, "stats")) {
        total_background += json::get_number(*stats, "totalBackground").value_or(0);
        total_offscreen += json::get_number(*stats, "totalOffscreen").value_or(0);
        buffer_size += json::get_number(*stats, "bufferSize").value_or(0);
        detail["stats"] = *stats;
      }
    }
    connections.push_back(std::move(detail));
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const json::value& x, const json::value& y) { return entry_time(x) > entry_time(y); });
  auto number = [](double d) { return json::value(static_cast<std::int64_t>(d)); };
  return json::object{{"entries", std::move(entries)},
                      {"stats", json::object{{"totalBackground", number(total_background)},
                                             {"totalOffscreen", number(total_offscreen)},
                                             {"bufferSize", number(buffer_size)}}},
                      {"connections", std::move(connections)}};
}

}  // namespace

json::value merge_fan_out(std::string_view tool_name, const std::vector<profile_answer>& answers) {
  if (tool_name == "extension_get_state") return merge_state(answers);
  if (tool_name == "extension_get_logs") return merge_logs(answers);
  json::array merged;
  for (const auto& a : answers) {
    if (!a.reply.ok()) {
      merged.push_back(failed(a));
      continue;
    }
    if (const auto* arr = a.reply.result.if_array()) {
      for (const auto& item : *arr) {
        if (item.is_object()) {
          json::object o = item.get_object();
          o["connectionId"] = json::str(a.connection_id);
          merged.push_back(std::move(o));
        } else {
          merged.push_back(item);
        }
      }
    } else {
      merged.push_back(json::object{{"connectionId", json::str(a.connection_id)}, {"result", a.reply.result}});
    }
  }
  return merged;
}

}  // namespace opentabs::app
