// completion/complete: suggestions for a prompt's argument or a resource template's
// variable while the person types it.  Whoever declares the argument registers where its
// values come from (a completion_source: open tabs with their titles, plugin names, tool
// names); the registry picks the source by the request's ref and argument, and ranks what
// the source offers against what is typed (rank, sans-I/O): values starting with it first,
// then values or labels (a tab's title) containing it, case-insensitively, at most 100.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "json/json.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "net/asio.hpp"

namespace opentabs::mcp {

enum class completion_ref_kind { prompt, resource_template };

struct completion_request {
  completion_ref_kind kind = completion_ref_kind::prompt;
  std::string ref;       // the prompt's name, or the resource template's URI template
  std::string argument;  // the argument's (or template variable's) name
  std::string value;     // what is typed so far
  json::object context;  // context.arguments: the arguments already chosen (strings)
};
// completion/complete's params: ref {type "ref/prompt", name} or {type "ref/resource", uri},
// argument {name, value}, optional context.arguments.
jsonrpc::parsed<completion_request> parse_complete(const json::object& params);

// One value a source offers; `label` is matched too but not sent (completion values are
// plain strings): typing part of a tab's title completes to its id.
struct completion_candidate {
  std::string value;
  std::string label;
};
// The values an argument may take now; `context` holds the arguments already chosen.
using completion_source = std::function<net::awaitable<std::vector<completion_candidate>>(const json::object& context)>;

class completion_registry {
 public:
  static constexpr std::size_t max_values = 100;  // the spec's bound on completion.values

  // `source` completes `argument` of the prompt or resource template `ref`; a later add for
  // the same argument replaces it.
  void add(completion_ref_kind kind, std::string ref, std::string argument, completion_source source);
  bool knows(completion_ref_kind kind, std::string_view ref, std::string_view argument) const;

  // The CompleteResult ({"completion":{"values","total","hasMore"}}); an argument nobody
  // registered completes to no values.
  net::awaitable<json::object> complete(const completion_request& request) const;

  // What `typed` selects from `candidates`, best first, as a CompleteResult.
  static json::object rank(const std::vector<completion_candidate>& candidates, std::string_view typed);

 private:
  std::map<std::tuple<completion_ref_kind, std::string, std::string>, completion_source, std::less<>> sources_;
};

}  // namespace opentabs::mcp
