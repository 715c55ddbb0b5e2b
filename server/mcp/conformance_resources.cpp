#include "mcp/conformance_resources.hpp"

#include <optional>


namespace opentabs::mcp {

namespace {

// A 1x1 RGB PNG (the same image as the conformance tools' image fixture).
constexpr std::string_view kPng = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgaPgPAAIDAYAkYfWXAAAAAElFTkSuQmCC";
constexpr std::string_view kTemplatePrefix = "test://template/";
constexpr std::string_view kTemplateSuffix = "/data";

json::object text_contents(std::string_view uri, std::string_view mime, std::string_view text) {
  return json::object{{"uri", json::str(uri)}, {"mimeType", json::str(mime)}, {"text", json::str(text)}};
}

// The {id} of test://template/{id}/data: one non-empty path segment.
std::optional<std::string_view> template_id(std::string_view uri) {
  if (!uri.starts_with(kTemplatePrefix) || !uri.ends_with(kTemplateSuffix)) return std::nullopt;
  auto id = uri.substr(kTemplatePrefix.size(), uri.size() - kTemplatePrefix.size() - kTemplateSuffix.size());
  if (id.empty() || id.find('/') != std::string_view::npos) return std::nullopt;
  return id;
}

std::optional<json::object> fixture_contents(std::string_view uri) {
  if (uri == "test://static-text") return text_contents(uri, "text/plain", "This is the content of the static text resource.");
  if (uri == "test://static-binary")
    return json::object{{"uri", json::str(uri)}, {"mimeType", "image/png"}, {"blob", json::str(kPng)}};
  if (uri == "test://watched-resource") return text_contents(uri, "text/plain", "Watched resource content.");
  if (auto id = template_id(uri)) {
    json::object data{{"id", json::str(*id)}, {"templateTest", true}, {"data", json::str("Data for ID: " + std::string(*id))}};
    return text_contents(uri, "application/json", json::dump(data));
  }
  return std::nullopt;
}

}  // namespace

const std::vector<tools::listed_resource>& conformance_resources::fixtures() {
  static const std::vector<tools::listed_resource> list{
      {"test://static-text", "static-text", "", "A static text resource for conformance testing.", "text/plain"},
      {"test://static-binary", "static-binary", "", "A static binary resource (a PNG image) for conformance testing.", "image/png"},
      {"test://watched-resource", "watched-resource", "", "A resource clients subscribe to for conformance testing.", "text/plain"},
  };
  return list;
}

asio::awaitable<std::vector<tools::listed_resource>> conformance_resources::list_resources(tools::call_options options) {
  auto list = fixtures();
  auto inner = co_await inner_.list_resources(std::move(options));
  list.insert(list.end(), std::make_move_iterator(inner.begin()), std::make_move_iterator(inner.end()));
  co_return list;
}

std::vector<tools::listed_template> conformance_resources::list_templates() const {
  std::vector<tools::listed_template> list{
      {"test://template/{id}/data", "template-data", "", "Data for one id, substituted from the URI.", "application/json"}};
  auto inner = inner_.list_templates();
  list.insert(list.end(), inner.begin(), inner.end());
  return list;
}

asio::awaitable<result<json::array>> conformance_resources::read_resource(std::string uri, tools::call_options options) {
  if (auto fixture = fixture_contents(uri)) co_return json::array{std::move(*fixture)};
  co_return co_await inner_.read_resource(std::move(uri), std::move(options));
}

bool conformance_resources::can_subscribe(std::string_view uri) const {
  return fixture_contents(uri).has_value() || inner_.can_subscribe(uri);
}

}  // namespace opentabs::mcp
