// What the server offers as MCP resources: the listing, the URI templates and the read of
// one URI.  Implemented by the app (server_resources: health, audit log, plugins, open
// tabs read through the tool pipeline); the MCP endpoints only translate, and the
// conformance mode puts its fixtures in front (mcp/conformance_resources).  Everything
// runs on the server's io_context thread.
#pragma once

#include <string>
#include <vector>

#include <asio/awaitable.hpp>

#include "json/json.hpp"
#include "tools/tool_service.hpp"
#include "util/result.hpp"

namespace opentabs::tools {

// One entry of resources/list.
struct listed_resource {
  std::string uri;
  std::string name;
  std::string title;  // "": none
  std::string description;
  std::string mime_type;
};

// One entry of resources/templates/list (RFC 6570 level 1: {name} stands for one path segment).
struct listed_template {
  std::string uri_template;
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;
};

class resource_service {
 public:
  virtual ~resource_service() = default;
  // The resources `options.client` may see now (tabs the browser permission allows among them).
  virtual asio::awaitable<std::vector<listed_resource>> list_resources(call_options options) = 0;
  virtual std::vector<listed_template> list_templates() const = 0;
  // One resource's contents: each {"uri","mimeType","text"|"blob"}.  not_found: no such
  // resource (the endpoints answer the revision's resource-not-found error); any other
  // failure is the read's own (a tab that closed, a refused permission, no extension).
  virtual asio::awaitable<result<json::array>> read_resource(std::string uri, call_options options) = 0;
  // Whether `uri` names a resource a client may subscribe to (one that exists now, or a
  // tab that may open under it); false: the subscription is refused as not found.
  virtual bool can_subscribe(std::string_view uri) const = 0;
};

}  // namespace opentabs::tools
