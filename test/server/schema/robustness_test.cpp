// Robustness: a fixed-seed stream of random schemas (every keyword the translator knows,
// nested, with references) and random instances.  Nothing may crash or hang, refusals must
// carry a message, and every violation must have one.  (Run under OPENTABS_SANITIZE=ON to
// catch memory errors; the same generator was used offline for a differential run against
// Ajv 2020 + ajv-formats.)
#include <doctest/doctest.h>

#include <random>

#include "schema/translate.hpp"
#include "schema/validator.hpp"

using namespace opentabs;

namespace {
std::mt19937 rng(20261122);
int R(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
const char* keys[] = {"a", "b", "x-1", "c"};
json::value rand_value(int d) {
  switch (R(d > 3 ? 5 : 7)) {
    case 0: return nullptr;
    case 1: return R(2) == 0;
    case 2: return R(20) - 5;
    case 3: return R(100) / 7.0;
    case 4: { const char* s[] = {"", "a", "abc", "a@b.co", "2024-01-01", "10.0.0.1", "x-1", "ÄÖ", "123e4567-e89b-12d3-a456-426614174000"}; return json::str(s[R(9)]); }
    case 5: { json::array a; for (int i = R(4); i > 0; --i) a.push_back(rand_value(d + 1)); return a; }
    default: { json::object o; for (int i = R(4); i > 0; --i) o[keys[R(4)]] = rand_value(d + 1); return o; }
  }
}
json::value rand_schema(int d);
json::array schema_list(int d) { json::array a; for (int i = R(3) + 1; i > 0; --i) a.push_back(rand_schema(d + 1)); return a; }
json::value rand_schema(int d) {
  if (R(8) == 0) return R(2) == 0;
  json::object s;
  int n = d > 3 ? R(2) : R(5) + 1;
  for (int i = 0; i < n; ++i) {
    switch (R(26)) {
      case 0: { const char* t[] = {"string", "integer", "number", "object", "array", "null", "boolean"}; s["type"] = t[R(7)]; break; }
      case 1: { json::object p; for (int j = R(3); j >= 0; --j) p[keys[R(4)]] = rand_schema(d + 1); s["properties"] = p; break; }
      case 2: { json::object p; const char* pats[] = {"^x-", "a", "^[a-c]$", ".*"}; p[pats[R(4)]] = rand_schema(d + 1); s["patternProperties"] = p; break; }
      case 3: s["additionalProperties"] = R(3) == 0 ? json::value(rand_schema(d + 1)) : json::value(R(2) == 0); break;
      case 4: s["items"] = R(2) ? json::value(rand_schema(d + 1)) : json::value(schema_list(d)); break;
      case 5: s["prefixItems"] = schema_list(d); break;
      case 6: s["additionalItems"] = rand_schema(d + 1); break;
      case 7: s["anyOf"] = schema_list(d); break;
      case 8: s["oneOf"] = schema_list(d); break;
      case 9: s["allOf"] = schema_list(d); break;
      case 10: s["not"] = rand_schema(d + 1); break;
      case 11: s["$ref"] = R(2) ? "#/$defs/d" : "#"; break;
      case 12: { json::array r; r.push_back(keys[R(4)]); s["required"] = r; break; }
      case 13: { json::array e; for (int j = R(3); j >= 0; --j) e.push_back(rand_value(3)); s["enum"] = e; break; }
      case 14: s["const"] = rand_value(3); break;
      case 15: s[R(2) ? "minimum" : "exclusiveMaximum"] = R(10); break;
      case 16: s[R(2) ? "minLength" : "maxItems"] = R(3); break;
      case 17: { json::object dep; dep[keys[R(4)]] = R(2) ? json::value(json::array{keys[R(4)]}) : json::value(rand_schema(d + 1)); s["dependencies"] = dep; break; }
      case 18: s["propertyNames"] = rand_schema(d + 1); break;
      case 19: s["contains"] = rand_schema(d + 1); break;
      case 20: s["if"] = rand_schema(d + 1); s["then"] = rand_schema(d + 1); if (R(2)) s["else"] = rand_schema(d + 1); break;
      case 21: { const char* f[] = {"email", "uuid", "date", "ipv4"}; s["format"] = f[R(4)]; break; }
      case 22: { const char* p[] = {"^a", "b$", "(?:a|b)+", "^(?!x)"}; s["pattern"] = p[R(4)]; break; }
      case 23: s["uniqueItems"] = true; break;
      case 24: s["minProperties"] = R(3); break;
      default: s["multipleOf"] = R(3) + 1; break;
    }
  }
  if (d == 0) { json::object defs; defs["d"] = rand_schema(2); s["$defs"] = defs; }
  return s;
}
}  // namespace

TEST_CASE("random schemas and instances never crash and always explain themselves") {
  int compiled = 0, refused = 0, invalid = 0, prechecked = 0;
  for (int i = 0; i < 400; ++i) {
    json::value s = rand_schema(0);
    if (!s.is_object()) continue;
    auto v = schema::validator::compile(s.get_object());
    // What the load-time precheck refuses, compiling refuses too (it runs first at load).
    if (auto early = schema::precheck(s.get_object(), {})) {
      REQUIRE_FALSE(v.ok());
      ++prechecked;
    }
    if (!v) {
      ++refused;
      CHECK_FALSE(v.err().message.empty());
      continue;
    }
    ++compiled;
    for (int j = 0; j < 6; ++j) {
      auto x = (*v)->check(rand_value(0));
      if (x) {
        ++invalid;
        CHECK_FALSE(x->message.empty());
      }
    }
  }
  CHECK(compiled > 100);
  CHECK(invalid > 100);
  MESSAGE("compiled " << compiled << ", refused " << refused << " (" << prechecked << " by the precheck), violations " << invalid);
}
