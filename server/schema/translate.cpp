#include "schema/translate.hpp"

#include <cmath>
#include <algorithm>
#include <functional>
#include <set>

#include "schema/formats.hpp"
#include "schema/schema_failure.hpp"

namespace opentabs::schema {
namespace {

using json::object;
using json::value;

constexpr std::string_view root_def = "__opentabs_root";

bool is_annotation(std::string_view k) {
  static const std::string_view names[] = {
      "title", "description", "default", "examples", "$comment", "deprecated", "readOnly",
      "writeOnly", "contentEncoding", "contentMediaType", "contentSchema", "$schema", "$id", "id",
      "$anchor", "$dynamicAnchor", "$vocabulary", "discriminator", "example", "markdownDescription",
  };
  for (auto n : names)
    if (n == k) return true;
  return k.size() > 2 && k[0] == 'x' && k[1] == '-';
}

bool is_unsupported(std::string_view k) {
  return k == "unevaluatedProperties" || k == "unevaluatedItems" || k == "$dynamicRef" ||
         k == "$recursiveRef" || k == "minContains" || k == "maxContains";
}

bool valid_type_name(std::string_view t) {
  return t == "null" || t == "boolean" || t == "object" || t == "array" || t == "number" ||
         t == "string" || t == "integer";
}

value false_schema() {
  object o;
  o["not"] = object{};
  return o;
}

class translator {
 public:
  translator(const limits& lim, const object& root, const key_schema_compiler& compile_key_schema)
      : lim_(lim), root_(root), compile_key_schema_(compile_key_schema) {}

  result<value> node(const value& v, const std::string& at, std::size_t depth) {
    if (v.is_bool()) return v.get_bool() ? value(object{}) : false_schema();
    if (!v.is_object()) return fail(at, "a schema must be an object or a boolean, found " + std::string(json::type_name(v)));
    if (depth > lim_.max_schema_depth)
      return fail(at, "schemas nest deeper than " + std::to_string(lim_.max_schema_depth) + " levels");
    if (++nodes_ > lim_.max_schema_nodes)
      return make_error(errc::too_large, "schema has more than " + std::to_string(lim_.max_schema_nodes) + " subschemas");

    const object& in = v.get_object();
    object out;
    std::vector<value> extras;  // constraints added as allOf entries
    std::optional<json::value> lower, upper;
    std::vector<std::pair<js_regex, value>> pattern_props;
    std::function<std::optional<std::string>(std::string_view)> names_rejects;
    bool lower_excl = false, upper_excl = false;
    string_check sc;
    bool has_sc = false;
    const value* prefix_items = nullptr;
    const value* items = nullptr;
    std::optional<json::array> const_enum;
    const value* if_schema = nullptr;
    const value* then_schema = nullptr;
    const value* else_schema = nullptr;
    bool nullable = false;

    auto sub = [&](const value& s, std::string_view key) { return node(s, at + "/" + escape_pointer_token(key), depth + 1); };
    auto schema_map = [&](const value& m, std::string_view key) -> result<value> {
      if (!m.is_object()) return fail(at + "/" + std::string(key), "must be an object of schemas");
      object o;
      for (auto& [k, s] : m.get_object()) {
        auto r = node(s, at + "/" + std::string(key) + "/" + escape_pointer_token(k), depth + 1);
        if (!r) return r.err();
        o[k] = std::move(*r);
      }
      return value(std::move(o));
    };
    auto schema_list = [&](const value& a, std::string_view key) -> result<value> {
      if (!a.is_array() || a.get_array().empty()) return fail(at + "/" + std::string(key), "must be a non-empty array of schemas");
      json::array o;
      std::size_t i = 0;
      for (auto& s : a.get_array()) {
        auto r = node(s, at + "/" + std::string(key) + "/" + std::to_string(i++), depth + 1);
        if (!r) return r.err();
        o.push_back(std::move(*r));
      }
      return value(std::move(o));
    };
    auto number = [&](const value& n, std::string_view key) -> result<value> {
      if (!n.is_number()) return fail(at + "/" + std::string(key), "must be a number");
      return n;
    };
    auto count = [&](const value& n, std::string_view key) -> result<value> {
      auto d = n.is_number() ? n.to_number<double>() : -1.0;
      if (!n.is_number() || d < 0 || d != std::floor(d) || d > 4294967295.0)
        return fail(at + "/" + std::string(key), "must be a non-negative integer");
      return value(static_cast<std::uint64_t>(d));
    };

    for (auto& [key_sv, val] : in) {
      std::string_view key = key_sv;
      std::string k(key);
      if (is_annotation(key)) continue;
      if (is_unsupported(key)) return fail(at + "/" + k, "keyword \"" + k + "\" is not supported");
      if (key == "$ref") {
        if (!val.is_string()) return fail(at + "/$ref", "must be a string");
        auto p = ref_to_pointer(val.get_string());
        if (!p) return fail(at + "/$ref", "only local references (\"#...\") are supported, found \"" + std::string(val.get_string()) + "\"");
        out["$ref"] = val;
      } else if (key == "type") {
        if (val.is_string()) {
          if (!valid_type_name(val.get_string())) return fail(at + "/type", "unknown type \"" + std::string(val.get_string()) + "\"");
        } else if (val.is_array()) {
          for (auto& t : val.get_array())
            if (!t.is_string() || !valid_type_name(t.get_string())) return fail(at + "/type", "must list known type names");
        } else {
          return fail(at + "/type", "must be a string or an array of strings");
        }
        out["type"] = val;
      } else if (key == "enum") {
        if (!val.is_array()) return fail(at + "/enum", "must be an array");
        if (val.get_array().empty()) extras.push_back(false_schema());
        else out["enum"] = val;
      } else if (key == "const") {
        const_enum = json::array{val};
      } else if (key == "properties" || key == "patternProperties" || key == "$defs" || key == "definitions" ||
                 key == "dependentSchemas") {
        auto r = schema_map(val, key);
        if (!r) return r.err();
        if (key == "patternProperties") {
          for (auto& [pat, sub_schema] : r->get_object()) {
            auto re = compile_pattern(pat);
            if (!re) return fail(at + "/patternProperties", re.err().message);
            pattern_props.emplace_back(std::move(*re), std::move(sub_schema));
          }
        } else if (key == "dependentSchemas") {
          auto& deps = out["dependencies"].is_object() ? out["dependencies"].get_object() : out["dependencies"].emplace_object();
          for (auto& [p, s] : r->get_object()) deps[p] = std::move(s);
        } else {
          out[k] = std::move(*r);
        }
      } else if (key == "dependentRequired" || key == "dependencies") {
        if (!val.is_object()) return fail(at + "/" + k, "must be an object");
        auto& deps = out["dependencies"].is_object() ? out["dependencies"].get_object() : out["dependencies"].emplace_object();
        for (auto& [p, d] : val.get_object()) {
          if (d.is_array()) {
            for (auto& n : d.get_array())
              if (!n.is_string()) return fail(at + "/" + k, "property dependencies must list property names");
            if (!d.get_array().empty()) deps[p] = d;
          } else if (key == "dependencies") {
            auto r = node(d, at + "/dependencies/" + escape_pointer_token(p), depth + 1);
            if (!r) return r.err();
            deps[p] = std::move(*r);
          } else {
            return fail(at + "/dependentRequired", "values must be arrays of property names");
          }
        }
        if (deps.empty()) out.erase("dependencies");
      } else if (key == "additionalProperties" || key == "additionalItems") {
        if (val.is_bool()) {
          out[k] = val;
        } else {
          auto r = sub(val, key);
          if (!r) return r.err();
          out[k] = std::move(*r);
        }
      } else if (key == "items") {
        items = &val;
      } else if (key == "prefixItems") {
        prefix_items = &val;
      } else if (key == "not" || key == "contains" || key == "if" || key == "then" || key == "else") {
        auto r = sub(val, key);
        if (!r) return r.err();
        if (key == "not") out["not"] = std::move(*r);
        else if (key == "contains") {
          // contains S  ≡  not an array, or not (every item fails S)
          object every_fails, not_array, some_item;
          every_fails["items"] = object{{"not", std::move(*r)}};
          some_item["not"] = std::move(every_fails);
          not_array["not"] = object{{"type", "array"}};
          object c;
          c["anyOf"] = json::array{std::move(not_array), std::move(some_item)};
          c[synthetic_tag] = "opentabs:contains";
          extras.push_back(std::move(c));
        } else {
          if (key == "if") if_schema = &val;
          if (key == "then") then_schema = &val;
          if (key == "else") else_schema = &val;
        }
      } else if (key == "allOf" || key == "anyOf" || key == "oneOf") {
        auto r = schema_list(val, key);
        if (!r) return r.err();
        out[k] = std::move(*r);
      } else if (key == "propertyNames") {
        auto r = key_validator(val, at + "/propertyNames");
        if (!r) return r.err();
        names_rejects = std::move(*r);
      } else if (key == "pattern") {
        if (!val.is_string()) return fail(at + "/pattern", "must be a string");
        auto re = compile_pattern(val.get_string());
        if (!re) return fail(at + "/pattern", re.err().message);
        sc.pattern = std::move(*re);
        has_sc = true;
      } else if (key == "format") {
        if (!val.is_string()) return fail(at + "/format", "must be a string");
        if (is_checked_format(val.get_string())) {
          sc.format = std::string(val.get_string());
          has_sc = true;
        }
      } else if (key == "minimum" || key == "maximum") {
        auto n = number(val, key);
        if (!n) return n.err();
        auto& bound = key == "minimum" ? lower : upper;
        bool& excl = key == "minimum" ? lower_excl : upper_excl;
        bool draft4_excl = false;
        if (auto* e = json::find(in, key == "minimum" ? "exclusiveMinimum" : "exclusiveMaximum"); e && e->is_bool())
          draft4_excl = e->get_bool();
        tighten(bound, excl, *n, draft4_excl, key == "minimum");
      } else if (key == "exclusiveMinimum" || key == "exclusiveMaximum") {
        if (val.is_bool()) continue;  // draft-04 form, read together with minimum/maximum
        auto n = number(val, key);
        if (!n) return n.err();
        bool is_min = key == "exclusiveMinimum";
        tighten(is_min ? lower : upper, is_min ? lower_excl : upper_excl, *n, true, is_min);
      } else if (key == "multipleOf") {
        auto n = number(val, key);
        if (!n) return n.err();
        if (!(n->to_number<double>() > 0)) return fail(at + "/multipleOf", "must be greater than 0");
        out["multipleOf"] = val;
      } else if (key == "minLength" || key == "maxLength" || key == "minItems" || key == "maxItems" ||
                 key == "minProperties" || key == "maxProperties") {
        auto r = count(val, key);
        if (!r) return r.err();
        out[k] = std::move(*r);
      } else if (key == "uniqueItems") {
        if (!val.is_bool()) return fail(at + "/uniqueItems", "must be a boolean");
        if (val.get_bool()) out["uniqueItems"] = true;
      } else if (key == "required") {
        if (!val.is_array()) return fail(at + "/required", "must be an array of property names");
        for (auto& n : val.get_array())
          if (!n.is_string()) return fail(at + "/required", "must be an array of property names");
        if (!val.get_array().empty()) out["required"] = val;
      } else if (key == "nullable") {
        if (val.is_bool() && val.get_bool()) nullable = true;
      }
      // Any other keyword is unknown to every draft we read: an annotation, ignored.
    }

    if (nullable) {
      if (auto* t = out.if_contains("type")) {
        json::array types;
        if (t->is_string()) types.push_back(*t);
        else types = t->get_array();
        bool has_null = false;
        for (auto& x : types) has_null = has_null || (x.is_string() && x.get_string() == "null");
        if (!has_null) types.push_back("null");
        *t = std::move(types);
      }
    }

    if (const_enum) {
      if (auto* e = out.if_contains("enum")) {
        json::array keep;
        for (auto& x : e->get_array())
          if (x == (*const_enum)[0]) keep.push_back(x);
        if (keep.empty()) extras.push_back(false_schema());
        else *e = std::move(keep);
      } else {
        out["enum"] = std::move(*const_enum);
      }
    }

    // prefixItems (2020-12) = draft-04 array-form items; 2020-12 items after it = additionalItems.
    if (prefix_items) {
      out.erase("additionalItems");  // not a 2020-12 keyword: next to prefixItems it is ignored
      auto r = schema_list(*prefix_items, "prefixItems");
      if (!r) return r.err();
      out["items"] = std::move(*r);
      if (items) {
        if (items->is_bool()) out["additionalItems"] = *items;
        else {
          auto a = sub(*items, "items");
          if (!a) return a.err();
          out["additionalItems"] = std::move(*a);
        }
      }
    } else if (items) {
      if (items->is_array()) {
        auto r = schema_list(*items, "items");
        if (!r) return r.err();
        out["items"] = std::move(*r);
      } else {
        auto r = sub(*items, "items");
        if (!r) return r.err();
        out["items"] = std::move(*r);
      }
    }

    if (if_schema && (then_schema || else_schema)) {
      auto cond = sub(*if_schema, "if");
      if (!cond) return cond.err();
      if (then_schema) {  // if → then  ≡  not(if) or then
        auto t = sub(*then_schema, "then");
        if (!t) return t.err();
        object c;
        c["anyOf"] = json::array{object{{"not", *cond}}, std::move(*t)};
        c[synthetic_tag] = "opentabs:then";
        extras.push_back(std::move(c));
      }
      if (else_schema) {  // not(if) → else  ≡  if or else
        auto e = sub(*else_schema, "else");
        if (!e) return e.err();
        object c;
        c["anyOf"] = json::array{*cond, std::move(*e)};
        c[synthetic_tag] = "opentabs:else";
        extras.push_back(std::move(c));
      }
    }

    if (lower) {
      out["minimum"] = std::move(*lower);
      if (lower_excl) out["exclusiveMinimum"] = true;
    }
    if (upper) {
      out["maximum"] = std::move(*upper);
      if (upper_excl) out["exclusiveMaximum"] = true;
    }
    if (has_sc) out["pattern"] = check_marker(add_check(std::move(sc)));
    declare_implicit_properties(out, pattern_props);
    if (!pattern_props.empty() || names_rejects) assemble_key_rules(out, pattern_props, std::move(names_rejects));

    // Draft-04 ignores every sibling of "$ref"; 2020-12 applies them, so move the ref into allOf.
    if (out.contains("$ref") && (out.size() > 1 || !extras.empty())) {
      object ref;
      ref["$ref"] = out["$ref"];
      out.erase("$ref");
      extras.insert(extras.begin(), value(std::move(ref)));
    }
    if (!extras.empty()) {
      auto& all = out["allOf"].is_array() ? out["allOf"].get_array() : out["allOf"].emplace_array();
      for (auto& e : extras) all.push_back(std::move(e));
    }
    return value(std::move(out));
  }

  std::vector<string_check> take_checks() { return std::move(checks_); }
  std::size_t pattern_count() const { return patterns_; }
  std::size_t pattern_program_size() const { return program_size_; }

 private:
  // Every `pattern` and patternProperties key of the schema (propertyNames sub-schemas
  // included) counts against one budget of patterns and one of RE2 instructions, which
  // together bound what compiling the schema's regexes costs.
  result<js_regex> compile_pattern(std::string_view source) {
    if (patterns_ >= lim_.max_patterns)
      return make_error(errc::too_large, "schema has more than " + std::to_string(lim_.max_patterns) +
                                                   " patterns (pattern and patternProperties)");
    ++patterns_;
    std::size_t left = lim_.max_total_program_size - std::min(lim_.max_total_program_size, program_size_);
    auto re = js_regex::compile(source, pattern_limits{lim_.max_pattern_length, std::min(lim_.max_pattern_program_size, left)});
    if (!re && re.err().is(schema_failure::pattern_too_large) && left < lim_.max_pattern_program_size)
      return make_error(errc::too_large, "the schema's patterns together compile to more than " +
                                                   std::to_string(lim_.max_total_program_size) +
                                                   " RE2 instructions (use fewer or simpler patterns)");
    if (re) program_size_ += re->program_size();
    return re;
  }

  error fail(const std::string& at, const std::string& why) {
    return make_error(errc::invalid_params, "schema " + (at.empty() ? std::string("(root)") : at) + ": " + why);
  }

  // Keeps the stricter of the current and a new bound.
  static void tighten(std::optional<value>& bound, bool& excl, const value& nv, bool n_excl, bool is_lower) {
    if (!bound) {
      bound = nv;
      excl = n_excl;
      return;
    }
    double n = nv.to_number<double>(), b = bound->to_number<double>();
    bool stricter = is_lower ? n > b : n < b;
    if (stricter) {
      bound = nv;
      excl = n_excl;
    } else if (n == b) {
      excl = excl || n_excl;
    }
  }

  std::size_t add_check(string_check c) {
    checks_.push_back(std::move(c));
    return checks_.size() - 1;
  }

  // propertyNames: a sub-validator run on each key (empty for `true`: any name).  The
  // root's $defs/definitions come along so references inside it still resolve.
  result<std::function<std::optional<std::string>(std::string_view)>> key_validator(const value& s, const std::string& at) {
    object doc;
    if (s.is_bool()) {
      if (s.get_bool()) return std::function<std::optional<std::string>(std::string_view)>{};
      doc = false_schema().get_object();
    } else if (s.is_object()) {
      doc = s.get_object();
    } else {
      return fail(at, "must be a schema");
    }
    if (lim_.max_property_names_nesting == 0) return fail(at, "propertyNames schemas nest too deeply");
    // Only a schema that refers to something needs the root's definitions.
    if (json::dump(doc).find("\"$ref\"") != std::string::npos)
      for (auto k : {"$defs", "definitions"})
        if (auto* d = root_.if_contains(k); d && !doc.contains(k)) doc[k] = *d;
    limits sub_limits = lim_;
    sub_limits.max_property_names_nesting = lim_.max_property_names_nesting - 1;
    // One budget for the whole schema.
    sub_limits.max_patterns = lim_.max_patterns - patterns_;
    sub_limits.max_total_program_size = lim_.max_total_program_size - program_size_;
    auto v = compile_key_schema_(doc, sub_limits);
    if (!v) return fail(at, v.err().message);
    patterns_ += v->pattern_count;
    program_size_ += v->pattern_program_size;
    return std::move(v->reject_reason);
  }

  // RapidJSON 1.1 treats every name listed in "required" or "dependencies" as a declared
  // property (with an accept-anything schema), so additionalProperties and
  // patternProperties would never apply to it.  Declare those names explicitly with the
  // schema JSON Schema gives them: matching patterns (folded in by assemble_key_rules), else
  // additionalProperties.
  void declare_implicit_properties(object& out, const std::vector<std::pair<js_regex, value>>& patterns) {
    // A copy: inserting "properties" below may rehash `out` and move its values.
    std::optional<value> ap_copy;
    if (auto* found = out.if_contains("additionalProperties")) ap_copy = *found;
    const value* ap = ap_copy ? &*ap_copy : nullptr;
    bool restricts = (ap && (ap->is_object() || (ap->is_bool() && !ap->get_bool()))) || !patterns.empty();
    if (!restricts) return;
    std::vector<std::string> names;
    if (auto* req = out.if_contains("required"); req && req->is_array())
      for (auto& r : req->get_array())
        if (r.is_string()) names.emplace_back(r.get_string());
    if (auto* deps = out.if_contains("dependencies"); deps && deps->is_object())
      for (auto& kv : deps->get_object()) {
        names.emplace_back(kv.key());
        if (kv.value().is_array())
          for (auto& r : kv.value().get_array())
            if (r.is_string()) names.emplace_back(r.get_string());
      }
    if (names.empty()) return;
    object& props = out["properties"].is_object() ? out["properties"].get_object() : out["properties"].emplace_object();
    for (auto& name : names) {
      if (props.contains(name)) continue;
      bool patterned = false;
      for (auto& [re, _] : patterns) patterned = patterned || re.search(name);
      value rule = object{};
      if (!patterned && ap && ap->is_object()) {
        rule = *ap;
      } else if (!patterned && ap && ap->is_bool() && !ap->get_bool()) {
        object f = false_schema().get_object();
        f[synthetic_tag] = "opentabs:additionalProperties";
        rule = std::move(f);
      }
      props[name] = std::move(rule);
    }
  }

  // RapidJSON 1.1 mishandles a key that matches a patternProperties entry and is also
  // named in "properties" or falls under an additionalProperties schema (it ORs the two,
  // and the mode leaks to later keys).  So every patternProperties entry is made to apply
  // only to keys outside "properties": pattern schemas are folded statically into the
  // named properties they match, and an additionalProperties schema becomes one more
  // entry matching the keys no pattern covers.  propertyNames is an entry whose schema
  // always fails, matching the names its schema rejects.
  void assemble_key_rules(object& out, std::vector<std::pair<js_regex, value>>& patterns,
                          std::function<std::optional<std::string>(std::string_view)> names_rejects) {
    std::vector<std::string> named;
    object* props = out.if_contains("properties") ? &out["properties"].get_object() : nullptr;
    if (props)
      for (auto& kv : *props) named.emplace_back(kv.key());
    std::sort(named.begin(), named.end());
    if (props) {
      for (auto& kv : *props) {
        std::string_view k = kv.key();
        json::array all;
        for (auto& [re, sub_schema] : patterns)
          if (re.search(k)) all.push_back(sub_schema);
        if (names_rejects && names_rejects(k)) {
          object f = false_schema().get_object();
          f[synthetic_tag] = "opentabs:propertyNames";
          kv.value() = std::move(f);
          continue;
        }
        if (all.empty()) continue;
        all.insert(all.begin(), kv.value());
        kv.value() = object{{"allOf", std::move(all)}};
      }
    }
    object pp;
    if (names_rejects) {
      string_check c;
      c.what = string_check::kind::key_name;
      c.key_rejects = names_rejects;
      c.named = named;
      object f = false_schema().get_object();
      f[synthetic_tag] = "opentabs:propertyNames";
      pp[check_marker(add_check(std::move(c)))] = std::move(f);
    }
    std::vector<js_regex> all_patterns;
    for (auto& [re, sub_schema] : patterns) {
      string_check c;
      c.what = string_check::kind::key_pattern;
      c.pattern = re;
      c.named = named;
      all_patterns.push_back(re);
      pp[check_marker(add_check(std::move(c)))] = std::move(sub_schema);
    }
    // RapidJSON 1.1 also crashes (null schema) on a pattern-matched key when
    // additionalProperties is false, so "false" becomes an always-failing entry too.
    if (auto* ap = out.if_contains("additionalProperties")) {
      value rule;
      if (ap->is_object()) {
        rule = std::move(*ap);
      } else if (ap->is_bool() && !ap->get_bool()) {
        object f = false_schema().get_object();
        f[synthetic_tag] = "opentabs:additionalProperties";
        rule = std::move(f);
      }
      out.erase("additionalProperties");
      if (!rule.is_null()) {
        string_check c;
        c.what = string_check::kind::key_additional;
        c.named = named;
        c.other_patterns = std::move(all_patterns);
        pp[check_marker(add_check(std::move(c)))] = std::move(rule);
      }
    }
    out["patternProperties"] = std::move(pp);
  }

  const limits& lim_;
  const object& root_;
  const key_schema_compiler& compile_key_schema_;
  std::size_t nodes_ = 0;
  std::size_t patterns_ = 0;
  std::size_t program_size_ = 0;
  std::vector<string_check> checks_;
};

// Calls f(ref_string) for every "$ref" in schema positions of a translated document.
void for_each_ref(value& v, const std::function<void(json::string&)>& f) {
  if (!v.is_object()) return;
  auto& o = v.get_object();
  if (auto* r = o.if_contains("$ref"); r && r->is_string()) f(r->get_string());
  for (auto k : {"properties", "patternProperties", "$defs", "definitions", "dependencies"})
    if (auto* m = o.if_contains(k); m && m->is_object())
      for (auto& [_, s] : m->get_object()) for_each_ref(s, f);
  for (auto k : {"additionalProperties", "additionalItems", "not"})
    if (auto* s = o.if_contains(k)) for_each_ref(*s, f);
  if (auto* s = o.if_contains("items")) {
    if (s->is_array()) for (auto& x : s->get_array()) for_each_ref(x, f);
    else for_each_ref(*s, f);
  }
  for (auto k : {"allOf", "anyOf", "oneOf"})
    if (auto* a = o.if_contains(k); a && a->is_array())
      for (auto& x : a->get_array()) for_each_ref(x, f);
}

std::size_t count_objects(const value& v) {
  std::size_t n = 0;
  if (v.is_object()) {
    n = 1;
    for (auto& kv : v.get_object()) n += count_objects(kv.value());
  } else if (v.is_array()) {
    for (auto& x : v.get_array()) n += count_objects(x);
  }
  return n;
}

// Subschemas applied to the same value as `node` (not to a property or item of it).
std::vector<std::string> same_value_children(const std::string& at, const object& o) {
  std::vector<std::string> out;
  if (auto* r = o.if_contains("$ref"); r && r->is_string())
    if (auto p = ref_to_pointer(r->get_string())) out.push_back(*p);
  for (auto k : {"allOf", "anyOf", "oneOf"})
    if (auto* a = o.if_contains(k); a && a->is_array())
      for (std::size_t i = 0; i < a->get_array().size(); ++i) out.push_back(at + "/" + k + "/" + std::to_string(i));
  if (auto* n = o.if_contains("not"); n && n->is_object()) out.push_back(at + "/not");
  if (auto* d = o.if_contains("dependencies"); d && d->is_object())
    for (auto& kv : d->get_object())
      if (kv.value().is_object()) out.push_back(at + "/dependencies/" + escape_pointer_token(kv.key()));
  return out;
}

std::optional<std::string> find_left_recursion(const value& doc) {
  std::set<std::string> done, on_path;
  std::function<std::optional<std::string>(const std::string&)> visit = [&](const std::string& at) -> std::optional<std::string> {
    if (done.count(at)) return std::nullopt;
    if (!on_path.insert(at).second) return at.empty() ? std::string("#") : pointer_to_ref(at);
    const value* node = resolve_pointer(doc, at);
    if (node && node->is_object())
      for (auto& child : same_value_children(at, node->get_object()))
        if (auto c = visit(child)) return c;
    on_path.erase(at);
    done.insert(at);
    return std::nullopt;
  };
  std::optional<std::string> found;
  for_each_subschema(doc, "", [&](const std::string& at, const value&) {
    if (!found) found = visit(at);
  });
  return found;
}

bool is_pure_ref(const value& v) {
  return v.is_object() && v.get_object().contains("$ref");
}

}  // namespace

void for_each_subschema(const value& v, const std::string& at, const std::function<void(const std::string&, const value&)>& f) {
  if (!v.is_object()) return;
  f(at, v);
  auto& o = v.get_object();
  for (auto k : {"properties", "patternProperties", "$defs", "definitions", "dependencies"})
    if (auto* m = o.if_contains(k); m && m->is_object())
      for (auto& kv : m->get_object()) for_each_subschema(kv.value(), at + "/" + k + "/" + escape_pointer_token(kv.key()), f);
  for (auto k : {"additionalProperties", "additionalItems", "not", "items"})
    if (auto* x = o.if_contains(k); x && x->is_object()) for_each_subschema(*x, at + "/" + k, f);
  for (auto k : {"allOf", "anyOf", "oneOf", "items"})
    if (auto* a = o.if_contains(k); a && a->is_array())
      for (std::size_t i = 0; i < a->get_array().size(); ++i)
        for_each_subschema(a->get_array()[i], at + "/" + k + "/" + std::to_string(i), f);
}

std::string check_marker(std::size_t index) { return "(?opentabs:" + std::to_string(index) + ")"; }

std::optional<std::size_t> parse_check_marker(std::string_view p) {
  constexpr std::string_view prefix = "(?opentabs:";
  if (p.size() < prefix.size() + 2 || p.substr(0, prefix.size()) != prefix || p.back() != ')') return std::nullopt;
  std::size_t n = 0;
  for (char c : p.substr(prefix.size(), p.size() - prefix.size() - 1)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<std::size_t>(c - '0');
    if (n > 100000000) return std::nullopt;
  }
  return n;
}

bool string_check::matches(std::string_view s) const {
  auto is_named = [&] { return std::binary_search(named.begin(), named.end(), s); };
  switch (what) {
    case kind::value:
      if (pattern && !pattern->search(s)) return false;
      if (!format.empty() && !check_format(format, s)) return false;
      return true;
    case kind::key_pattern: return !is_named() && pattern->search(s);
    case kind::key_additional:
      if (is_named()) return false;
      for (auto& p : other_patterns)
        if (p.search(s)) return false;
      return true;
    case kind::key_name: return !is_named() && key_rejects(s).has_value();
  }
  return false;
}

std::string string_check::explain(std::string_view s) const {
  if (what == kind::key_name) {
    auto v = key_rejects(s);
    return v ? *v : "is valid";
  }
  if (!format.empty() && !check_format(format, s)) return "must match format \"" + format + "\"";
  if (pattern && !pattern->search(s)) return "must match pattern \"" + pattern->source() + "\"";
  return "is valid";
}

std::string escape_pointer_token(std::string_view t) {
  std::string out;
  for (char c : t) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

const json::value* resolve_pointer(const json::value& root, std::string_view p) {
  const json::value* cur = &root;
  while (!p.empty()) {
    if (p[0] != '/') return nullptr;
    p.remove_prefix(1);
    auto end = p.find('/');
    std::string_view raw = p.substr(0, end);
    p = end == std::string_view::npos ? std::string_view{} : p.substr(end);
    std::string token;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '~' && i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
        token += raw[i + 1] == '0' ? '~' : '/';
        ++i;
      } else {
        token += raw[i];
      }
    }
    if (cur->is_object()) {
      cur = cur->get_object().if_contains(token);
      if (!cur) return nullptr;
    } else if (cur->is_array()) {
      if (token.empty() || token.size() > 9) return nullptr;
      std::size_t i = 0;
      for (char c : token) {
        if (c < '0' || c > '9') return nullptr;
        i = i * 10 + static_cast<std::size_t>(c - '0');
      }
      if (token.size() > 1 && token[0] == '0') return nullptr;
      if (i >= cur->get_array().size()) return nullptr;
      cur = &cur->get_array()[i];
    } else {
      return nullptr;
    }
  }
  return cur;
}

std::optional<std::string> ref_to_pointer(std::string_view ref) {
  if (ref.empty() || ref[0] != '#') return std::nullopt;
  std::string out;
  for (std::size_t i = 1; i < ref.size(); ++i) {
    char c = ref[i];
    if (c == '%') {
      auto hex = [](char h) -> int {
        if (h >= '0' && h <= '9') return h - '0';
        if (h >= 'a' && h <= 'f') return h - 'a' + 10;
        if (h >= 'A' && h <= 'F') return h - 'A' + 10;
        return -1;
      };
      if (i + 2 >= ref.size()) return std::nullopt;
      int a = hex(ref[i + 1]), b = hex(ref[i + 2]);
      if (a < 0 || b < 0) return std::nullopt;
      out += static_cast<char>(a * 16 + b);
      i += 2;
    } else {
      out += c;
    }
  }
  if (!out.empty() && out[0] != '/') return std::nullopt;  // "#name" anchors are not supported
  return out;
}

std::string pointer_to_ref(std::string_view p) {
  static const char* hexd = "0123456789ABCDEF";
  std::string out = "#";
  for (unsigned char c : p) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                 c == '.' || c == '_' || c == '~' || c == '/';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hexd[c >> 4];
      out += hexd[c & 15];
    }
  }
  return out;
}

result<translation> translate(const json::object& schema, const limits& lim,
                              const key_schema_compiler& compile_key_schema) {
  std::size_t bytes = json::dump(schema).size();
  if (bytes > lim.max_schema_bytes)
    return make_error(errc::too_large, "schema is " + std::to_string(bytes) + " bytes, more than the limit of " +
                                            std::to_string(lim.max_schema_bytes));
  translator t(lim, schema, compile_key_schema);
  auto r = t.node(value(schema), "", 0);
  if (!r) return r.err();
  value doc = std::move(*r);

  // "#" refers to the root; draft-04 RapidJSON cannot re-enter a root it is still
  // building through another pointer, so the root's validation keywords move to
  // $defs/__opentabs_root and every pointer is re-based onto it.
  bool root_ref = false;
  for_each_ref(doc, [&](json::string& ref) { root_ref = root_ref || ref == "#" || ref == "#/"; });
  if (root_ref) {
    object body = doc.get_object();
    object root;
    for (auto k : {"$defs", "definitions"}) {
      if (auto* d = body.if_contains(k)) {
        root[k] = *d;
        body.erase(k);
      }
    }
    auto& defs = root["$defs"].is_object() ? root["$defs"].get_object() : root["$defs"].emplace_object();
    defs[root_def] = std::move(body);
    doc = std::move(root);
    for_each_ref(doc, [&](json::string& ref) {
      auto p = *ref_to_pointer(ref);
      bool in_defs = p.rfind("/$defs/", 0) == 0 || p.rfind("/definitions/", 0) == 0;
      if (!in_defs) ref = pointer_to_ref("/$defs/" + std::string(root_def) + p);
    });
    doc.get_object()["$ref"] = pointer_to_ref("/$defs/" + std::string(root_def));
  }

  // Every reference must resolve (RapidJSON 1.1 silently accepts anything for a dangling
  // one) and chains of pure references must not loop (it would recurse forever).
  std::optional<error> bad;
  for_each_ref(doc, [&](json::string& ref) {
    if (bad) return;
    std::set<std::string> seen;
    std::string current(ref);
    while (true) {
      auto p = ref_to_pointer(current);
      const value* target = p ? resolve_pointer(doc, *p) : nullptr;
      if (!target || !target->is_object()) {
        bad = make_error(errc::invalid_params, "schema: $ref \"" + current + "\" does not resolve to a schema");
        return;
      }
      if (!seen.insert(current).second) {
        bad = make_error(errc::invalid_params, "schema: $ref \"" + current + "\" is part of a reference cycle with no schema");
        return;
      }
      if (!is_pure_ref(*target)) return;
      if (p->empty()) return;  // the root itself: a re-based root ref, resolved above
      current = std::string(target->get_object().at("$ref").get_string());
    }
  });
  if (bad) return *bad;

  // A reference cycle that never descends into the value ({"anyOf":[{"$ref":"#"}]})
  // would make RapidJSON recurse until the stack overflows on the first validation.
  if (auto cycle = find_left_recursion(doc))
    return make_error(errc::invalid_params, "schema: \"" + *cycle +
                                            "\" refers back to itself without descending into the value (endless recursion)");

  // RapidJSON 1.1 builds a schema object for every JSON object in the document (enum
  // values included) and finds each through a linear scan: quadratic, so bound the count.
  std::size_t objects = count_objects(doc);
  if (objects > lim.max_schema_nodes)
    return make_error(errc::too_large, "schema has " + std::to_string(objects) + " JSON objects (enum and const values included), more than the limit of " +
                                            std::to_string(lim.max_schema_nodes));

  // RapidJSON reads "$ref" as a URI fragment and rejects characters such as '$' unless
  // percent-encoded ("#/$defs/x" would silently resolve to nothing).
  for_each_ref(doc, [&](json::string& ref) { ref = pointer_to_ref(*ref_to_pointer(ref)); });

  translation out;
  out.document = std::move(doc.get_object());
  out.checks = t.take_checks();
  out.pattern_count = t.pattern_count();
  out.pattern_program_size = t.pattern_program_size();
  return out;
}

}  // namespace opentabs::schema

namespace opentabs::schema {
namespace {

// The walk of precheck(): the subschema positions translator::node() visits, in its order,
// refusing only what it refuses without translating anything.
class prechecker {
 public:
  explicit prechecker(const limits& lim) : lim_(lim) { at_.reserve(16); }

  std::optional<error> node(const value& v, std::size_t depth) {
    if (v.is_bool()) return std::nullopt;
    if (!v.is_object()) return fail("a schema must be an object or a boolean, found " + std::string(json::type_name(v)));
    return object_node(v.get_object(), depth);
  }

  std::optional<error> object_node(const object& in, std::size_t depth) {
    if (depth > lim_.max_schema_depth)
      return fail("schemas nest deeper than " + std::to_string(lim_.max_schema_depth) + " levels");
    if (++nodes_ > lim_.max_schema_nodes)
      return make_error(errc::too_large, "schema has more than " + std::to_string(lim_.max_schema_nodes) + " subschemas");
    for (auto& kv : in) {
      std::string_view key = kv.key();
      const value& val = kv.value();
      if (is_annotation(key)) continue;
      if (is_unsupported(key)) {
        scope s(at_, std::string(key));
        return fail("keyword \"" + std::string(key) + "\" is not supported");
      }
      std::optional<error> bad;
      if (key == "properties" || key == "patternProperties" || key == "$defs" || key == "definitions" ||
          key == "dependentSchemas") {
        if (!val.is_object()) {
          scope s(at_, std::string(key));
          return fail("must be an object of schemas");
        }
        scope s(at_, std::string(key));
        for (auto& entry : val.get_object()) {
          scope e(at_, escape_pointer_token(entry.key()));
          if ((bad = node(entry.value(), depth + 1))) return bad;
        }
      } else if (key == "dependencies" && val.is_object()) {
        scope s(at_, "dependencies");
        for (auto& entry : val.get_object()) {
          if (entry.value().is_array()) continue;
          scope e(at_, escape_pointer_token(entry.key()));
          if ((bad = node(entry.value(), depth + 1))) return bad;
        }
      } else if (key == "additionalProperties" || key == "additionalItems" || key == "not" || key == "contains") {
        scope s(at_, std::string(key));
        if ((bad = node(val, depth + 1))) return bad;
      } else if (key == "allOf" || key == "anyOf" || key == "oneOf") {
        if ((bad = list(val, key, depth))) return bad;
      } else if (key == "propertyNames" && val.is_object()) {
        // Compiled as a schema of its own: its own depth and count, its refusal nested.
        prechecker inner(lim_);
        if (auto why = inner.object_node(val.get_object(), 0)) {
          scope s(at_, "propertyNames");
          return fail(why->message);
        }
      }
    }
    // After the other keywords, as translator::node() does.
    const value* prefix_items = in.if_contains("prefixItems");
    const value* items = in.if_contains("items");
    if (prefix_items) {
      if (auto bad = list(*prefix_items, "prefixItems", depth)) return bad;
      if (items && !items->is_bool()) {
        scope s(at_, "items");
        if (auto bad = node(*items, depth + 1)) return bad;
      }
    } else if (items) {
      if (items->is_array()) {
        if (auto bad = list(*items, "items", depth)) return bad;
      } else {
        scope s(at_, "items");
        if (auto bad = node(*items, depth + 1)) return bad;
      }
    }
    const value* if_schema = in.if_contains("if");
    const value* then_schema = in.if_contains("then");
    const value* else_schema = in.if_contains("else");
    if (if_schema && (then_schema || else_schema)) {
      for (auto [k, s] : {std::pair{"if", if_schema}, {"then", then_schema}, {"else", else_schema}}) {
        if (!s) continue;
        scope e(at_, k);
        if (auto bad = node(*s, depth + 1)) return bad;
      }
    }
    return std::nullopt;
  }

 private:
  // Pushes one pointer token for the lifetime of a block.
  struct scope {
    scope(std::vector<std::string>& at, std::string token) : at_(at) { at_.push_back(std::move(token)); }
    ~scope() { at_.pop_back(); }
    std::vector<std::string>& at_;
  };

  std::optional<error> list(const value& a, std::string_view key, std::size_t depth) {
    scope s(at_, std::string(key));
    if (!a.is_array() || a.get_array().empty()) return fail("must be a non-empty array of schemas");
    std::size_t i = 0;
    for (auto& x : a.get_array()) {
      scope e(at_, std::to_string(i++));
      if (auto bad = node(x, depth + 1)) return bad;
    }
    return std::nullopt;
  }

  error fail(const std::string& why) const {
    std::string at;
    for (auto& token : at_) at += "/" + token;
    return make_error(errc::invalid_params, "schema " + (at.empty() ? std::string("(root)") : at) + ": " + why);
  }

  const limits& lim_;
  std::vector<std::string> at_;
  std::size_t nodes_ = 0;
};

}  // namespace

std::optional<error> precheck(const json::object& schema, const limits& lim) {
  prechecker p(lim);
  return p.object_node(schema, 0);
}

}  // namespace opentabs::schema
