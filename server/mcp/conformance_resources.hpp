// Test mode only (`opentabs start --conformance-mode`): a resource_service decorator that
// adds the fixture resources the official MCP conformance suite reads (test://static-text,
// test://static-binary, test://watched-resource and the template test://template/{id}/data;
// shapes from the suite's resources-* scenarios) in front of the server's own resources.
// Every other URI goes to the inner service unchanged.
#pragma once

#include "tools/resource_service.hpp"

namespace opentabs::mcp {

class conformance_resources final : public tools::resource_service {
 public:
  explicit conformance_resources(tools::resource_service& inner) : inner_(inner) {}

  asio::awaitable<std::vector<tools::listed_resource>> list_resources(tools::call_options options) override;
  std::vector<tools::listed_template> list_templates() const override;
  asio::awaitable<result<json::array>> read_resource(std::string uri, tools::call_options options) override;
  bool can_subscribe(std::string_view uri) const override;

  // The fixture resources alone, in list order.
  static const std::vector<tools::listed_resource>& fixtures();

 private:
  tools::resource_service& inner_;
};

}  // namespace opentabs::mcp
