// The Zod 4 corpus (test/fixtures/schemas/zod4-corpus.json): real z.toJSONSchema() output
// with samples that Zod and Ajv (draft 2020-12 + ajv-formats) both judged.  Every schema
// must compile, every valid sample pass, every invalid (and invalid-by-format) sample fail.
#include <doctest/doctest.h>

#include "json/json.hpp"
#include "schema/validator.hpp"
#include "util/files.hpp"

using namespace opentabs;

TEST_CASE("every case of the Zod 4 corpus is judged as Zod and Ajv judged it") {
  auto text = read_file(std::string(OPENTABS_SOURCE_DIR) + "/test/fixtures/schemas/zod4-corpus.json", 16 * 1024 * 1024);
  REQUIRE_MESSAGE(text.ok(), (text.ok() ? "" : text.err().message));
  auto corpus = json::parse(*text);
  REQUIRE(corpus.ok());
  REQUIRE(corpus->is_array());
  CHECK(corpus->get_array().size() >= 30);
  std::size_t samples = 0;
  for (auto& c : corpus->get_array()) {
    auto& kase = c.get_object();
    std::string name(kase.at("name").get_string());
    CAPTURE(name);
    auto v = schema::validator::compile(kase.at("schema").get_object());
    REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.err().message));
    for (auto& s : kase.at("valid").get_array()) {
      auto x = (*v)->check(s);
      CHECK_MESSAGE(!x.has_value(), json::dump(s) << " rejected: " << (x ? x->display_path() + ": " + x->message : ""));
      ++samples;
    }
    for (auto key : {"invalid", "invalidByFormat"}) {
      auto* list = json::get_array(kase, key);
      if (!list) continue;
      for (auto& s : *list) {
        auto x = (*v)->check(s);
        CHECK_MESSAGE(x.has_value(), json::dump(s) << " accepted but is " << std::string(key));
        if (x) CHECK_FALSE(x->message.empty());
        ++samples;
      }
    }
  }
  MESSAGE("corpus samples judged: " << samples);
}
