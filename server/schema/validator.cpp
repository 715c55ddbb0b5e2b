#include "schema/validator.hpp"

#include <cmath>
#include <cstring>
#include <vector>

#include "schema/translate.hpp"

// ---------------------------------------------------------------------------------------
// RapidJSON hook.  RapidJSON 1.1 evaluates "pattern" and "patternProperties" with its own
// regex class, chosen by the value encoding.  A private encoding type (identical to UTF-8)
// lets this file specialise that class: a translated schema carries markers
// "(?opentabs:N)" instead of regexes, and the specialisation resolves them to the
// string_check objects of the schema being compiled.  Checks therefore run inside
// RapidJSON's own evaluation of anyOf/oneOf/not, with JavaScript regex semantics.
#include <rapidjson/encodings.h>
#include <rapidjson/internal/regex.h>

namespace opentabs::schema::detail {

struct js_utf8 : rapidjson::UTF8<char> {};

// The checks of the schema under construction (set only while a schema document is built).
thread_local const std::vector<string_check>* compiling_checks = nullptr;

// RapidJSON hands the regex a NUL-terminated pointer without its length; the SAX walk
// records the string it is feeding so embedded NULs cannot shorten what a check sees.
struct string_cursor {
  const char* ptr = nullptr;
  std::size_t len = 0;
};
thread_local string_cursor current_string;

}  // namespace opentabs::schema::detail

namespace rapidjson::internal {

template <>
class GenericRegex<opentabs::schema::detail::js_utf8, CrtAllocator> {
 public:
  typedef char Ch;

  explicit GenericRegex(const Ch* source, CrtAllocator* = nullptr) {
    namespace d = opentabs::schema::detail;
    if (!d::compiling_checks || !source) return;
    auto index = opentabs::schema::parse_check_marker(source);
    if (index && *index < d::compiling_checks->size()) check_ = &(*d::compiling_checks)[*index];
  }

  // Anything that is not a marker (pattern-like strings in enum values, defaults...) is
  // ignored; translate() turned every real pattern into a marker.
  bool IsValid() const { return check_ != nullptr; }

  bool Search(const Ch* s) const {
    namespace d = opentabs::schema::detail;
    auto saved = d::current_string;  // a key check runs a nested validation
    std::size_t len = s == saved.ptr ? saved.len : std::strlen(s);
    bool matched = check_->matches(std::string_view(s, len));
    d::current_string = saved;
    return matched;
  }

 private:
  const opentabs::schema::string_check* check_ = nullptr;
};

}  // namespace rapidjson::internal

#include <rapidjson/document.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>
// ---------------------------------------------------------------------------------------

namespace opentabs::schema {
namespace {

using detail::js_utf8;
using rj_allocator = rapidjson::MemoryPoolAllocator<rapidjson::CrtAllocator>;
using rj_value = rapidjson::GenericValue<js_utf8, rj_allocator>;
using rj_document = rapidjson::GenericDocument<js_utf8, rj_allocator, rapidjson::CrtAllocator>;
using rj_schema_document = rapidjson::GenericSchemaDocument<rj_value, rapidjson::CrtAllocator>;
using rj_validator = rapidjson::GenericSchemaValidator<rj_schema_document, rapidjson::BaseReaderHandler<js_utf8, void>,
                                                       rapidjson::CrtAllocator>;
using rj_string_buffer = rapidjson::GenericStringBuffer<js_utf8>;

void to_rapidjson(const json::value& in, rj_value& out, rj_allocator& a);

// Objects directly: a tool's schema is translated without first copying it into a value.
void object_to_rapidjson(const json::object& in, rj_value& out, rj_allocator& a) {
  out.SetObject();
  for (auto& kv : in) {
    rj_value k, v;
    k.SetString(kv.key().data(), static_cast<rapidjson::SizeType>(kv.key().size()), a);
    to_rapidjson(kv.value(), v, a);
    out.AddMember(k, v, a);
  }
}

void to_rapidjson(const json::value& in, rj_value& out, rj_allocator& a) {
  switch (in.kind()) {
    case json::kind::null: out.SetNull(); break;
    case json::kind::bool_: out.SetBool(in.get_bool()); break;
    case json::kind::int64: out.SetInt64(in.get_int64()); break;
    case json::kind::uint64: out.SetUint64(in.get_uint64()); break;
    case json::kind::double_: out.SetDouble(in.get_double()); break;
    case json::kind::string: {
      auto& s = in.get_string();
      out.SetString(s.data(), static_cast<rapidjson::SizeType>(s.size()), a);
      break;
    }
    case json::kind::array: {
      out.SetArray();
      for (auto& x : in.get_array()) {
        rj_value v;
        to_rapidjson(x, v, a);
        out.PushBack(v, a);
      }
      break;
    }
    case json::kind::object: object_to_rapidjson(in.get_object(), out, a); break;
  }
}

// The translated schema's pool grows in chunks of this size.  RapidJSON's default is 64 KiB
// per document, allocated on the first value: with one document per tool that was 64 KiB of
// heap and ≈ 27 KiB of touched pages per tool (≈ 100 MiB and a fifth of the start-up time for
// 120 plugins × 30 tools), for schemas that mostly fit in a few KiB.
constexpr std::size_t kSchemaPoolChunk = 4 * 1024;

// A RapidJSON schema document; `doc` must outlive `schema`, `pool` must outlive `doc`.
struct compiled {
  rj_allocator pool{kSchemaPoolChunk};
  rj_document doc{&pool};
  std::unique_ptr<rj_schema_document> schema;
};

std::unique_ptr<compiled> build(const json::object& document, const std::vector<string_check>& checks) {
  auto c = std::make_unique<compiled>();
  object_to_rapidjson(document, c->doc, c->doc.GetAllocator());
  struct scope {  // the checks are visible to the regex hook only while this document is built
    explicit scope(const std::vector<string_check>* c) : saved(detail::compiling_checks) { detail::compiling_checks = c; }
    ~scope() { detail::compiling_checks = saved; }
    const std::vector<string_check>* saved;
  } visible(&checks);
  c->schema = std::make_unique<rj_schema_document>(c->doc);
  return c;
}

struct failure {
  std::string keyword;
  std::string schema_ptr;
  std::string instance_ptr;
  bool too_deep = false;
};

// Feeds a Boost.JSON value to the validator as SAX events: no re-serialisation, no copy.
class sax_walk {
 public:
  sax_walk(rj_validator& h, std::size_t max_depth) : h_(h), max_depth_(max_depth) {}
  bool too_deep = false;

  bool walk(const json::value& v, std::size_t depth) {
    switch (v.kind()) {
      case json::kind::null: return h_.Null();
      case json::kind::bool_: return h_.Bool(v.get_bool());
      case json::kind::int64: return h_.Int64(v.get_int64());
      case json::kind::uint64: return h_.Uint64(v.get_uint64());
      case json::kind::double_: {
        // JavaScript has one number type: 3.0 is an integer to Ajv, so it is one here.
        double d = v.get_double();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9007199254740992.0)
          return h_.Int64(static_cast<std::int64_t>(d));
        return h_.Double(d);
      }
      case json::kind::string: {
        auto& s = v.get_string();
        detail::current_string = {s.data(), s.size()};
        return h_.String(s.data(), static_cast<rapidjson::SizeType>(s.size()), false);
      }
      case json::kind::array: {
        if (depth >= max_depth_) return deep();
        if (!h_.StartArray()) return false;
        for (auto& x : v.get_array())
          if (!walk(x, depth + 1)) return false;
        return h_.EndArray(static_cast<rapidjson::SizeType>(v.get_array().size()));
      }
      case json::kind::object: return walk(v.get_object(), depth);
    }
    return false;
  }

  bool walk(const json::object& o, std::size_t depth) {
    if (depth >= max_depth_) return deep();
    if (!h_.StartObject()) return false;
    for (auto& kv : o) {
      detail::current_string = {kv.key().data(), kv.key().size()};
      if (!h_.Key(kv.key().data(), static_cast<rapidjson::SizeType>(kv.key().size()), false)) return false;
      if (!walk(kv.value(), depth + 1)) return false;
    }
    return h_.EndObject(static_cast<rapidjson::SizeType>(o.size()));
  }

 private:
  bool deep() {
    too_deep = true;
    return false;
  }
  rj_validator& h_;
  std::size_t max_depth_;
};

// `Instance`: a json::value, or a json::object walked as it is (no copy into a value).
template <class Instance>
std::optional<failure> run(const compiled& c, const Instance& instance, std::size_t max_depth) {
  // The validator's state allocator and its two stacks' allocators are this one (RapidJSON
  // would otherwise allocate one allocator object for each, per validation).
  rapidjson::CrtAllocator state;
  rj_validator validator(*c.schema, &state);
  sax_walk w(validator, max_depth);
  bool ok = w.walk(instance, 0);
  if (w.too_deep) return failure{"", "", "", true};
  if (ok && validator.IsValid()) return std::nullopt;
  failure f;
  f.keyword = validator.GetInvalidSchemaKeyword();
  rj_string_buffer sp, ip;
  validator.GetInvalidSchemaPointer().Stringify(sp);
  validator.GetInvalidDocumentPointer().Stringify(ip);
  f.schema_ptr.assign(sp.GetString(), sp.GetSize());
  f.instance_ptr.assign(ip.GetString(), ip.GetSize());
  return f;
}

std::string quote_list(const json::array& values) {
  std::string out;
  std::size_t n = 0;
  for (auto& v : values) {
    if (n == 10 || out.size() > 200) {
      out += ", ...";
      break;
    }
    if (n++) out += ", ";
    out += json::dump(v);
  }
  return out;
}

std::string number_text(const json::value& v) { return json::dump(v); }

std::string json_type_of(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null: return "null";
    case json::kind::bool_: return "boolean";
    case json::kind::int64:
    case json::kind::uint64: return "integer";
    case json::kind::double_: {
      double d = v.get_double();
      return d == std::floor(d) ? "integer" : "number";
    }
    case json::kind::string: return "string";
    case json::kind::array: return "array";
    case json::kind::object: return "object";
  }
  return "null";
}

bool type_accepts(const json::object& schema, const json::value& v) {
  auto* t = schema.if_contains("type");
  if (!t) return true;
  std::string actual = json_type_of(v);
  auto one = [&](const json::value& name) {
    if (!name.is_string()) return false;
    std::string_view n = name.get_string();
    return n == actual || (n == "number" && actual == "integer");
  };
  if (t->is_string()) return one(*t);
  if (t->is_array())
    for (auto& x : t->get_array())
      if (one(x)) return true;
  return false;
}

// Discriminator-like properties: {"kind": {"enum": ["a"]}} must agree with the instance.
bool discriminators_agree(const json::object& schema, const json::value& v) {
  if (!v.is_object()) return true;
  auto* props = schema.if_contains("properties");
  if (!props || !props->is_object()) return true;
  for (auto& [k, s] : props->get_object()) {
    if (!s.is_object()) continue;
    auto* e = s.get_object().if_contains("enum");
    auto* actual = v.get_object().if_contains(k);
    if (e && e->is_array() && e->get_array().size() == 1 && actual && *actual != e->get_array()[0]) return false;
  }
  return true;
}

std::string last_token(std::string_view ptr) {
  auto slash = ptr.rfind('/');
  std::string_view raw = slash == std::string_view::npos ? ptr : ptr.substr(slash + 1);
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '~' && i + 1 < raw.size()) {
      out += raw[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      out += raw[i];
    }
  }
  return out;
}

void collect_pattern_nodes(const json::value& document, std::vector<std::string>& out) {
  for_each_subschema(document, "", [&](const std::string& at, const json::value& node) {
    if (node.get_object().contains("patternProperties")) out.push_back(at);
  });
}

// True when every "$ref" anywhere in `v` points into /$defs/ or /definitions/.
bool refs_only_into_defs(const json::value& v) {
  if (v.is_array()) {
    for (auto& x : v.get_array())
      if (!refs_only_into_defs(x)) return false;
  } else if (v.is_object()) {
    for (auto& kv : v.get_object()) {
      if (kv.key() == "$ref" && kv.value().is_string()) {
        auto p = ref_to_pointer(kv.value().get_string());
        if (!p || (p->rfind("/$defs/", 0) != 0 && p->rfind("/definitions/", 0) != 0)) return false;
      } else if (!refs_only_into_defs(kv.value())) {
        return false;
      }
    }
  }
  return true;
}

std::string join_path(std::string_view base, std::string_view rel) { return std::string(base) + std::string(rel); }

}  // namespace

struct validator::impl {
  json::value document;  // the translated (draft-04) schema
  std::vector<string_check> checks;
  std::size_t pattern_count = 0;
  std::size_t pattern_program_size = 0;
  std::unique_ptr<compiled> main;
  limits lim;
  std::vector<std::string> pattern_nodes;  // pointers of subschemas with patternProperties
  bool refs_only_into_defs = true;

  // Validates `v` against the subschema at `schema_ptr` (a diagnosis-only compile).
  std::optional<failure> run_at(const std::string& schema_ptr, const json::value& v) const {
    if (schema_ptr.empty()) return run(*main, v, lim.max_instance_depth);  // "#" would refer to itself
    json::object doc = refs_only_into_defs ? diagnosis_skeleton(schema_ptr) : document.get_object();
    doc["$ref"] = pointer_to_ref(schema_ptr);
    auto c = build(doc, checks);
    return run(*c, v, lim.max_instance_depth);
  }

  // A document with only what validating against `target` needs when every reference
  // points into $defs/definitions: those, plus the target at its own pointer (earlier
  // array elements padded with {}), so schema pointers in failures stay the same while
  // the compile costs the size of the subschema, not of the whole schema.
  json::object diagnosis_skeleton(const std::string& target) const {
    json::value doc = json::object{};
    for (auto k : {"$defs", "definitions"})
      if (auto* d = document.get_object().if_contains(k)) doc.get_object()[k] = *d;
    const json::value* src = &document;
    json::value* dst = &doc;
    std::string_view rest = target;
    while (!rest.empty() && src) {
      rest.remove_prefix(1);
      auto end = rest.find('/');
      std::string token_raw(rest.substr(0, end));
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
      std::string token = last_token("/" + token_raw);
      if (src->is_object()) {
        src = src->get_object().if_contains(token);
        if (!dst->is_object()) *dst = json::object{};
        dst = &dst->get_object()[token];
      } else if (src->is_array()) {
        if (token.empty() || token.size() > 9 || token.find_first_not_of("0123456789") != std::string::npos) {
          src = nullptr;
          break;
        }
        std::size_t i = static_cast<std::size_t>(std::stoul(token));
        src = i < src->get_array().size() ? &src->get_array()[i] : nullptr;
        if (!dst->is_array()) *dst = json::array{};
        auto& a = dst->get_array();
        while (a.size() <= i) a.push_back(json::object{});
        dst = &a[i];
      } else {
        src = nullptr;
      }
    }
    if (src) *dst = *src;
    return std::move(doc.get_object());
  }

  // What the explanation of one failure looks at: the failing schema node and value.
  struct explain_site {
    const json::value& root;
    const failure& f;
    const std::string& base;
    const json::object& node;
    const json::value* val;

    // The object holding the failing value, and the failing value's key in it (keywords
    // that RapidJSON reports at the offending property rather than at its object).
    std::string parent_path() const { return join_path(base, f.instance_ptr.substr(0, f.instance_ptr.rfind('/'))); }
    std::string key() const { return last_token(f.instance_ptr); }
  };

  // Ajv-style explanation of a RapidJSON failure; `base` prefixes instance pointers of
  // nested diagnoses.  `budget` bounds the nested compiles one explanation may cost.
  violation explain(const json::value& root, const failure& f, const std::string& base, int& budget) const {
    violation out;
    out.keyword = f.keyword;
    out.path = join_path(base, f.instance_ptr);
    const json::value* node_v = resolve_pointer(document, f.schema_ptr);
    static const json::object empty;
    const explain_site at{root, f, base, node_v && node_v->is_object() ? node_v->get_object() : empty,
                          resolve_pointer(root, f.instance_ptr)};
    const std::string& kw = f.keyword;
    if (explain_value_keyword(at, out) || explain_bound(at, out)) return out;
    if (kw == "dependencies") return explain_dependencies(at, std::move(out), budget);
    if (kw == "patternProperties") return explain_pattern_properties(at, std::move(out), budget);
    if (kw == "allOf") return explain_all_of(at, std::move(out), budget);
    if (kw == "anyOf" || kw == "oneOf") return explain_any_of(at, std::move(out), budget);
    out.message = "must be valid (failed \"" + kw + "\")";
    return out;
  }

  // The explanation of a failure below `sub_ptr` for `v`, within the budget.
  std::optional<violation> nested(const std::string& sub_ptr, const json::value& v, const std::string& sub_base, int& budget) const {
    if (budget-- <= 0) return std::nullopt;
    auto sub = run_at(sub_ptr, v);
    if (!sub || sub->too_deep) return std::nullopt;
    return explain(v, *sub, sub_base, budget);
  }

  // type, enum, required, additionalProperties, pattern, not: false for other keywords.
  bool explain_value_keyword(const explain_site& at, violation& out) const {
    const std::string& kw = at.f.keyword;
    if (kw == "type") {
      auto* t = at.node.if_contains("type");
      std::string names;
      if (t && t->is_string()) names = std::string(t->get_string());
      else if (t && t->is_array())
        for (auto& x : t->get_array()) names += (names.empty() ? "" : ",") + std::string(x.is_string() ? x.get_string() : "");
      out.message = "must be " + names;
    } else if (kw == "enum") {
      auto* e = at.node.if_contains("enum");
      if (e && e->is_array() && e->get_array().size() == 1) out.message = "must be equal to constant " + json::dump(e->get_array()[0]);
      else out.message = "must be equal to one of the allowed values: " + (e && e->is_array() ? quote_list(e->get_array()) : "");
    } else if (kw == "required") {
      out.message = "must have required property";
      auto* req = at.node.if_contains("required");
      if (req && req->is_array() && at.val && at.val->is_object())
        for (auto& r : req->get_array())
          if (r.is_string() && !at.val->get_object().contains(r.get_string())) {
            out.message = "must have required property '" + std::string(r.get_string()) + "'";
            break;
          }
    } else if (kw == "additionalProperties") {
      // RapidJSON stops at the key, so the pointer names the extra property.
      out.path = at.parent_path();
      out.message = "must NOT have additional properties ('" + at.key() + "')";
    } else if (kw == "pattern") {
      auto* p = at.node.if_contains("pattern");
      std::size_t idx = checks.size();
      if (p && p->is_string())
        if (auto parsed = parse_check_marker(p->get_string())) idx = *parsed;
      out.message = "must match pattern";
      if (idx < checks.size() && at.val && at.val->is_string()) {
        out.message = checks[idx].explain(at.val->get_string());
        out.keyword = out.message.rfind("must match format", 0) == 0 ? "format" : "pattern";
      }
    } else if (kw == "not") {
      auto* n = at.node.if_contains("not");
      bool is_false = n && n->is_object() && n->get_object().empty();
      out.message = is_false ? "is not allowed here" : "must NOT be valid";
      auto* tag = at.node.if_contains(synthetic_tag);
      if (tag && tag->is_string() && tag->get_string() == "opentabs:propertyNames") {
        out.path = at.parent_path();
        out.keyword = "propertyNames";
        out.message = "property name '" + at.key() + "' is invalid";
      } else if (tag && tag->is_string() && tag->get_string() == "opentabs:additionalProperties") {
        out.path = at.parent_path();
        out.keyword = "additionalProperties";
        out.message = "must NOT have additional properties ('" + at.key() + "')";
      }
    } else {
      return false;
    }
    return true;
  }

  // The size and range keywords: false for other keywords.
  bool explain_bound(const explain_site& at, violation& out) const {
    const std::string& kw = at.f.keyword;
    auto num = [&](std::string_view k) { auto* x = at.node.if_contains(k); return x ? number_text(*x) : std::string("?"); };
    auto flag = [&](std::string_view k) { auto* x = at.node.if_contains(k); return x && x->is_bool() && x->get_bool(); };
    if (kw == "minimum") {
      out.message = std::string("must be ") + (flag("exclusiveMinimum") ? "> " : ">= ") + num("minimum");
    } else if (kw == "maximum") {
      out.message = std::string("must be ") + (flag("exclusiveMaximum") ? "< " : "<= ") + num("maximum");
    } else if (kw == "multipleOf") {
      out.message = "must be multiple of " + num("multipleOf");
    } else if (kw == "minLength") {
      out.message = "must NOT have fewer than " + num("minLength") + " characters";
    } else if (kw == "maxLength") {
      out.message = "must NOT have more than " + num("maxLength") + " characters";
    } else if (kw == "minItems") {
      out.message = "must NOT have fewer than " + num("minItems") + " items";
    } else if (kw == "maxItems") {
      out.message = "must NOT have more than " + num("maxItems") + " items";
    } else if (kw == "items" || kw == "additionalItems") {
      // A tuple without room for more items: RapidJSON points at the first extra item.
      if (kw == "items") out.path = at.parent_path();
      auto* items = at.node.if_contains("items");
      std::size_t n = items && items->is_array() ? items->get_array().size() : 0;
      out.message = "must NOT have more than " + std::to_string(n) + " items";
    } else if (kw == "uniqueItems") {
      out.message = "must NOT have duplicate items";
    } else if (kw == "minProperties") {
      out.message = "must NOT have fewer than " + num("minProperties") + " properties";
    } else if (kw == "maxProperties") {
      out.message = "must NOT have more than " + num("maxProperties") + " properties";
    } else {
      return false;
    }
    return true;
  }

  // dependencies: the missing property, or the dependent schema's own failure.
  violation explain_dependencies(const explain_site& at, violation out, int& budget) const {
    out.message = "must satisfy the property dependencies";
    auto* deps = at.node.if_contains("dependencies");
    if (deps && deps->is_object() && at.val && at.val->is_object()) {
      for (auto& [name, d] : deps->get_object()) {
        if (!at.val->get_object().contains(name)) continue;
        if (d.is_array()) {
          for (auto& r : d.get_array())
            if (r.is_string() && !at.val->get_object().contains(r.get_string())) {
              out.message = "must have property '" + std::string(r.get_string()) + "' when property '" +
                            std::string(name) + "' is present";
              return out;
            }
        } else if (auto sub = run_at(at.f.schema_ptr + "/dependencies/" + escape_pointer_token(name), *at.val); sub && !sub->too_deep) {
          if (budget-- > 0) return explain(*at.val, *sub, out.path, budget);
        }
      }
    }
    return out;
  }

  // patternProperties: which property failed, and why.
  violation explain_pattern_properties(const explain_site& at, violation out, int& budget) const {
    // RapidJSON reports these failures against the value's placeholder schema (pointer
    // ""), so find the object schema: one with an entry for this key that rejects the
    // parent object for this key.
    std::string key = at.key();
    std::string parent = at.f.instance_ptr.substr(0, at.f.instance_ptr.rfind('/'));
    out.message = "property '" + key + "' is invalid";
    const json::value* parent_val = resolve_pointer(at.root, parent);
    if (!parent_val || !at.val) return out;
    for (auto& candidate : pattern_nodes) {
      auto* cand = resolve_pointer(document, candidate);
      auto* pats = cand && cand->is_object() ? cand->get_object().if_contains("patternProperties") : nullptr;
      if (!pats || !pats->is_object()) continue;
      std::vector<std::pair<std::string, const json::value*>> entries;
      for (auto& [marker, sub_schema] : pats->get_object()) {
        auto idx = parse_check_marker(marker);
        if (idx && *idx < checks.size() && checks[*idx].matches(key)) entries.emplace_back(std::string(marker), &sub_schema);
      }
      if (entries.empty() || budget-- <= 0) continue;
      auto whole = run_at(candidate, *parent_val);
      if (!whole || whole->keyword != "patternProperties" || whole->instance_ptr != "/" + escape_pointer_token(key)) continue;
      for (auto& [marker, sub_schema] : entries) {
        auto* tag = sub_schema->is_object() ? sub_schema->get_object().if_contains(synthetic_tag) : nullptr;
        std::string_view t = tag && tag->is_string() ? std::string_view(tag->get_string()) : std::string_view();
        if (t == "opentabs:propertyNames") {
          out.path = join_path(at.base, parent);
          out.keyword = "propertyNames";
          out.message = "property name '" + key + "' is invalid: " + checks[*parse_check_marker(marker)].explain(key);
          return out;
        }
        if (t == "opentabs:additionalProperties") {
          out.path = join_path(at.base, parent);
          out.keyword = "additionalProperties";
          out.message = "must NOT have additional properties ('" + key + "')";
          return out;
        }
        if (auto v = nested(candidate + "/patternProperties/" + escape_pointer_token(marker), *at.val, out.path, budget)) return *v;
      }
      break;
    }
    return out;
  }

  // allOf: the failing branch (or what a synthetic branch stands for).
  violation explain_all_of(const explain_site& at, violation out, int& budget) const {
    out.message = "must match all schemas in allOf";
    auto* all = at.node.if_contains("allOf");
    if (all && all->is_array() && at.val) {
      for (std::size_t i = 0; i < all->get_array().size(); ++i) {
        auto sub_ptr = at.f.schema_ptr + "/allOf/" + std::to_string(i);
        if (budget-- <= 0) break;
        auto sub = run_at(sub_ptr, *at.val);
        if (!sub) continue;
        auto& branch = all->get_array()[i];
        auto* tag = branch.is_object() ? branch.get_object().if_contains(synthetic_tag) : nullptr;
        if (tag && tag->is_string()) {
          std::string_view t = tag->get_string();
          if (t == "opentabs:contains") out.message = "must contain at least 1 valid item", out.keyword = "contains";
          else if (t == "opentabs:then") out.message = "must match \"then\" schema", out.keyword = "if";
          else if (t == "opentabs:else") out.message = "must match \"else\" schema", out.keyword = "if";
          return out;
        }
        if (sub->too_deep) break;
        return explain(*at.val, *sub, out.path, budget);
      }
    }
    return out;
  }

  // anyOf / oneOf: the one plausible branch's failure, when there is exactly one.
  violation explain_any_of(const explain_site& at, violation out, int& budget) const {
    const std::string& kw = at.f.keyword;
    out.message = kw == "anyOf" ? "must match a schema in anyOf" : "must match exactly one schema in oneOf";
    auto* list = at.node.if_contains(kw);
    if (list && list->is_array() && at.val) {
      std::vector<std::size_t> plausible;
      std::size_t passing = 0;
      for (std::size_t i = 0; i < list->get_array().size(); ++i) {
        auto& b = list->get_array()[i];
        if (!b.is_object()) continue;
        if (budget-- <= 0) return out;
        auto sub = run_at(at.f.schema_ptr + "/" + kw + "/" + std::to_string(i), *at.val);
        if (!sub) ++passing;
        else if (type_accepts(b.get_object(), *at.val) && discriminators_agree(b.get_object(), *at.val)) plausible.push_back(i);
      }
      if (passing == 0 && plausible.size() == 1)
        if (auto v = nested(at.f.schema_ptr + "/" + kw + "/" + std::to_string(plausible[0]), *at.val, out.path, budget)) return *v;
    }
    return out;
  }
};

validator::validator(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
validator::~validator() = default;

namespace {

// propertyNames schemas are validators of their own (see key_schema_compiler).
result<compiled_key_schema> compile_key_schema(const json::object& schema, const limits& lim) {
  auto v = validator::compile(schema, lim);
  if (!v) return v.err();
  std::shared_ptr<const validator> keys = std::move(*v);
  compiled_key_schema out;
  out.pattern_count = keys->pattern_count();
  out.pattern_program_size = keys->pattern_program_size();
  out.reject_reason = [keys](std::string_view key) -> std::optional<std::string> {
    auto why = keys->check(json::str(key));
    if (!why) return std::nullopt;
    return std::move(why->message);
  };
  return out;
}

}  // namespace

result<std::shared_ptr<const validator>> validator::compile(const json::object& schema, const limits& lim) {
  auto t = translate(schema, lim, compile_key_schema);
  if (!t) return t.err();
  auto p = std::make_unique<impl>();
  p->document = std::move(t->document);
  p->checks = std::move(t->checks);
  p->pattern_count = t->pattern_count;
  p->pattern_program_size = t->pattern_program_size;
  p->lim = lim;
  p->main = build(p->document.get_object(), p->checks);
  collect_pattern_nodes(p->document, p->pattern_nodes);
  p->refs_only_into_defs = refs_only_into_defs(p->document);
  return std::shared_ptr<const validator>(new validator(std::move(p)));
}

std::optional<violation> validator::check(const json::value& instance) const {
  auto f = run(*impl_->main, instance, impl_->lim.max_instance_depth);
  if (!f) return std::nullopt;
  if (f->too_deep)
    return violation{"", "depth", "must not nest deeper than " + std::to_string(impl_->lim.max_instance_depth) + " levels"};
  int budget = 32;
  return impl_->explain(instance, *f, "", budget);
}

status validator::validate(const json::object& args, std::string_view tool_name) const {
  // Valid arguments (the common case) are walked as they are; only a refusal is copied into
  // a value for check() to explain.
  if (!run(*impl_->main, args, impl_->lim.max_instance_depth)) return ok();
  auto v = check(json::value(args));
  if (!v) return ok();
  return make_error(errc::invalid_params, describe_invalid_arguments(tool_name, *v));
}

std::size_t validator::pattern_count() const { return impl_->pattern_count; }
std::size_t validator::pattern_program_size() const { return impl_->pattern_program_size; }

const json::object& validator::compiled_schema() const { return impl_->document.get_object(); }

std::string describe_invalid_arguments(std::string_view tool_name, const violation& v) {
  return "Invalid arguments for tool \"" + std::string(tool_name) + "\":\n  - " + v.display_path() + ": " + v.message;
}

}  // namespace opentabs::schema
