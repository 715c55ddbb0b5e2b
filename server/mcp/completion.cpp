// completion/complete's sources and ranking (see completion.hpp).
#include "mcp/completion.hpp"

#include <algorithm>
#include <cctype>

namespace opentabs::mcp {

using jsonrpc::rpc_error;

namespace {

jsonrpc::parsed<completion_request> refused(rpc_error e) {
  jsonrpc::parsed<completion_request> p;
  p.error = std::move(e);
  return p;
}

std::string lowered(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

jsonrpc::parsed<completion_request> parse_complete(const json::object& params) {
  completion_request r;
  const auto* ref = json::get_object(params, "ref");
  if (!ref) return refused(rpc_error::invalid_params("params.ref", "is required: {\"type\":\"ref/prompt\",\"name\":...} or {\"type\":\"ref/resource\",\"uri\":...}"));
  const auto* type = json::get_string(*ref, "type");
  if (type && *type == "ref/prompt") {
    const auto* name = json::get_string(*ref, "name");
    if (!name || name->empty()) return refused(rpc_error::invalid_params("params.ref.name", "is required (a string naming the prompt)"));
    r.ref = std::string(*name);
  } else if (type && *type == "ref/resource") {
    const auto* uri = json::get_string(*ref, "uri");
    if (!uri || uri->empty()) return refused(rpc_error::invalid_params("params.ref.uri", "is required (the resource template's URI template)"));
    r.kind = completion_ref_kind::resource_template;
    r.ref = std::string(*uri);
  } else {
    return refused(rpc_error::invalid_params("params.ref.type", "must be \"ref/prompt\" or \"ref/resource\""));
  }
  const auto* argument = json::get_object(params, "argument");
  const auto* name = argument ? json::get_string(*argument, "name") : nullptr;
  const auto* value = argument ? json::get_string(*argument, "value") : nullptr;
  if (!name || name->empty()) return refused(rpc_error::invalid_params("params.argument.name", "is required (a string)"));
  if (!value) return refused(rpc_error::invalid_params("params.argument.value", "is required (a string, \"\" when nothing is typed yet)"));
  r.argument = std::string(*name);
  r.value = std::string(*value);
  if (const auto* context = json::get_object(params, "context"))
    if (const auto* args = json::get_object(*context, "arguments")) r.context = *args;
  jsonrpc::parsed<completion_request> out;
  out.value = std::move(r);
  return out;
}

void completion_registry::add(completion_ref_kind kind, std::string ref, std::string argument, completion_source source) {
  sources_[{kind, std::move(ref), std::move(argument)}] = std::move(source);
}

bool completion_registry::knows(completion_ref_kind kind, std::string_view ref, std::string_view argument) const {
  return sources_.count(std::make_tuple(kind, std::string(ref), std::string(argument))) > 0;
}

net::awaitable<json::object> completion_registry::complete(const completion_request& request) const {
  auto it = sources_.find(std::make_tuple(request.kind, request.ref, request.argument));
  if (it == sources_.end()) co_return rank({}, request.value);
  auto offered = co_await it->second(request.context);
  co_return rank(offered, request.value);
}

json::object completion_registry::rank(const std::vector<completion_candidate>& candidates, std::string_view typed) {
  const auto needle = lowered(typed);
  std::vector<const completion_candidate*> starts, contains;
  for (const auto& c : candidates) {
    const auto value = lowered(c.value);
    if (value.starts_with(needle)) starts.push_back(&c);
    else if (value.find(needle) != std::string::npos || lowered(c.label).find(needle) != std::string::npos) contains.push_back(&c);
  }
  json::array values;
  const std::size_t total = starts.size() + contains.size();
  for (const auto* group : {&starts, &contains})
    for (const auto* c : *group)
      if (values.size() < max_values) values.push_back(json::str(c->value));
  return json::object{{"completion", json::object{{"values", std::move(values)}, {"total", static_cast<std::int64_t>(total)}, {"hasMore", total > max_values}}}};
}

}  // namespace opentabs::mcp
