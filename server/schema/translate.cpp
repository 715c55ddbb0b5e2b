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
    draft d(v.get_object(), at, depth);
    for (auto& [key, val] : d.in)
      if (auto read = read_keyword(d, key, val); !read) return read.err();
    return assemble(d);
  }

  std::vector<string_check> take_checks() { return std::move(checks_); }
  std::size_t pattern_count() const { return patterns_; }
  std::size_t pattern_program_size() const { return program_size_; }

 private:
  // One schema object being translated: what its keywords said, gathered in keyword order
  // and assembled once all are read (several keywords combine: minimum with
  // exclusiveMinimum, const with enum, items with prefixItems, if with then and else).
  struct draft {
    draft(const object& schema, const std::string& pointer, std::size_t nesting)
        : in(schema), at(pointer), depth(nesting) {}
    const object& in;
    const std::string& at;
    std::size_t depth;
    object out;
    std::vector<value> extras;  // constraints added as allOf entries
    std::optional<value> lower, upper;
    bool lower_excl = false, upper_excl = false;
    std::vector<std::pair<js_regex, value>> pattern_props;
    std::function<std::optional<std::string>(std::string_view)> names_rejects;
    string_check sc;
    bool has_sc = false;
    const value* prefix_items = nullptr;
    const value* items = nullptr;
    std::optional<json::array> const_enum;
    const value* if_schema = nullptr;
    const value* then_schema = nullptr;
    const value* else_schema = nullptr;
    bool nullable = false;
  };

  using keyword_reader = status (translator::*)(draft&, std::string_view, const value&);

  // The keywords translated; any other is unknown to every draft we read: an annotation, ignored.
  static keyword_reader reader_for(std::string_view key) {
    static const std::pair<std::string_view, keyword_reader> readers[] = {
        {"$ref", &translator::read_ref},
        {"type", &translator::read_type},
        {"enum", &translator::read_enum},
        {"const", &translator::read_const},
        {"properties", &translator::read_schema_map},
        {"$defs", &translator::read_schema_map},
        {"definitions", &translator::read_schema_map},
        {"patternProperties", &translator::read_pattern_properties},
        {"dependentSchemas", &translator::read_dependent_schemas},
        {"dependentRequired", &translator::read_dependencies},
        {"dependencies", &translator::read_dependencies},
        {"additionalProperties", &translator::read_additional},
        {"additionalItems", &translator::read_additional},
        {"items", &translator::read_items},
        {"prefixItems", &translator::read_prefix_items},
        {"not", &translator::read_not},
        {"contains", &translator::read_contains},
        {"if", &translator::read_conditional},
        {"then", &translator::read_conditional},
        {"else", &translator::read_conditional},
        {"allOf", &translator::read_schema_list},
        {"anyOf", &translator::read_schema_list},
        {"oneOf", &translator::read_schema_list},
        {"propertyNames", &translator::read_property_names},
        {"pattern", &translator::read_pattern},
        {"format", &translator::read_format},
        {"minimum", &translator::read_bound},
        {"maximum", &translator::read_bound},
        {"exclusiveMinimum", &translator::read_exclusive_bound},
        {"exclusiveMaximum", &translator::read_exclusive_bound},
        {"multipleOf", &translator::read_multiple_of},
        {"minLength", &translator::read_count},
        {"maxLength", &translator::read_count},
        {"minItems", &translator::read_count},
        {"maxItems", &translator::read_count},
        {"minProperties", &translator::read_count},
        {"maxProperties", &translator::read_count},
        {"uniqueItems", &translator::read_unique_items},
        {"required", &translator::read_required},
        {"nullable", &translator::read_nullable},
    };
    for (auto& [name, reader] : readers)
      if (name == key) return reader;
    return nullptr;
  }

  status read_keyword(draft& d, std::string_view key, const value& val) {
    if (is_annotation(key)) return ok();
    if (is_unsupported(key)) return fail(d.at + "/" + std::string(key), "keyword \"" + std::string(key) + "\" is not supported");
    if (auto reader = reader_for(key)) return (this->*reader)(d, key, val);
    return ok();
  }

  // --- translating subschemas at a keyword of the draft

  result<value> sub(const draft& d, const value& s, std::string_view key) {
    return node(s, d.at + "/" + escape_pointer_token(key), d.depth + 1);
  }

  result<value> schema_map(const draft& d, const value& m, std::string_view key) {
    if (!m.is_object()) return fail(d.at + "/" + std::string(key), "must be an object of schemas");
    object o;
    for (auto& [k, s] : m.get_object()) {
      auto r = node(s, d.at + "/" + std::string(key) + "/" + escape_pointer_token(k), d.depth + 1);
      if (!r) return r.err();
      o[k] = std::move(*r);
    }
    return value(std::move(o));
  }

  result<value> schema_list(const draft& d, const value& a, std::string_view key) {
    if (!a.is_array() || a.get_array().empty()) return fail(d.at + "/" + std::string(key), "must be a non-empty array of schemas");
    json::array o;
    std::size_t i = 0;
    for (auto& s : a.get_array()) {
      auto r = node(s, d.at + "/" + std::string(key) + "/" + std::to_string(i++), d.depth + 1);
      if (!r) return r.err();
      o.push_back(std::move(*r));
    }
    return value(std::move(o));
  }

  result<value> number(const draft& d, const value& n, std::string_view key) {
    if (!n.is_number()) return fail(d.at + "/" + std::string(key), "must be a number");
    return n;
  }

  static object& dependencies_of(object& out) {
    return out["dependencies"].is_object() ? out["dependencies"].get_object() : out["dependencies"].emplace_object();
  }

  // --- one reader per keyword (or family of keywords read alike)

  status read_ref(draft& d, std::string_view, const value& val) {
    if (!val.is_string()) return fail(d.at + "/$ref", "must be a string");
    auto p = ref_to_pointer(val.get_string());
    if (!p) return fail(d.at + "/$ref", "only local references (\"#...\") are supported, found \"" + std::string(val.get_string()) + "\"");
    d.out["$ref"] = val;
    return ok();
  }

  status read_type(draft& d, std::string_view, const value& val) {
    if (val.is_string()) {
      if (!valid_type_name(val.get_string())) return fail(d.at + "/type", "unknown type \"" + std::string(val.get_string()) + "\"");
    } else if (val.is_array()) {
      for (auto& t : val.get_array())
        if (!t.is_string() || !valid_type_name(t.get_string())) return fail(d.at + "/type", "must list known type names");
    } else {
      return fail(d.at + "/type", "must be a string or an array of strings");
    }
    d.out["type"] = val;
    return ok();
  }

  status read_enum(draft& d, std::string_view, const value& val) {
    if (!val.is_array()) return fail(d.at + "/enum", "must be an array");
    if (val.get_array().empty()) d.extras.push_back(false_schema());
    else d.out["enum"] = val;
    return ok();
  }

  status read_const(draft& d, std::string_view, const value& val) {
    d.const_enum = json::array{val};
    return ok();
  }

  status read_schema_map(draft& d, std::string_view key, const value& val) {
    auto r = schema_map(d, val, key);
    if (!r) return r.err();
    d.out[std::string(key)] = std::move(*r);
    return ok();
  }

  // The subschemas are translated before any pattern is compiled.
  status read_pattern_properties(draft& d, std::string_view key, const value& val) {
    auto r = schema_map(d, val, key);
    if (!r) return r.err();
    for (auto& [pat, sub_schema] : r->get_object()) {
      auto re = compile_pattern(pat);
      if (!re) return fail(d.at + "/patternProperties", re.err().message);
      d.pattern_props.emplace_back(std::move(*re), std::move(sub_schema));
    }
    return ok();
  }

  // 2020-12 dependentSchemas is the schema half of draft-04 dependencies.
  status read_dependent_schemas(draft& d, std::string_view key, const value& val) {
    auto r = schema_map(d, val, key);
    if (!r) return r.err();
    auto& deps = dependencies_of(d.out);
    for (auto& [p, s] : r->get_object()) deps[p] = std::move(s);
    return ok();
  }

  // dependentRequired (2020-12) holds lists of names only; draft-04 dependencies holds
  // lists or schemas.  Both become draft-04 dependencies.
  status read_dependencies(draft& d, std::string_view key, const value& val) {
    std::string k(key);
    if (!val.is_object()) return fail(d.at + "/" + k, "must be an object");
    auto& deps = dependencies_of(d.out);
    for (auto& [p, dep] : val.get_object()) {
      if (dep.is_array()) {
        for (auto& n : dep.get_array())
          if (!n.is_string()) return fail(d.at + "/" + k, "property dependencies must list property names");
        if (!dep.get_array().empty()) deps[p] = dep;
      } else if (key == "dependencies") {
        auto r = node(dep, d.at + "/dependencies/" + escape_pointer_token(p), d.depth + 1);
        if (!r) return r.err();
        deps[p] = std::move(*r);
      } else {
        return fail(d.at + "/dependentRequired", "values must be arrays of property names");
      }
    }
    if (deps.empty()) d.out.erase("dependencies");
    return ok();
  }

  status read_additional(draft& d, std::string_view key, const value& val) {
    if (val.is_bool()) {
      d.out[std::string(key)] = val;
      return ok();
    }
    auto r = sub(d, val, key);
    if (!r) return r.err();
    d.out[std::string(key)] = std::move(*r);
    return ok();
  }

  // items and prefixItems are read together once every keyword is in: see assemble_items.
  status read_items(draft& d, std::string_view, const value& val) {
    d.items = &val;
    return ok();
  }

  status read_prefix_items(draft& d, std::string_view, const value& val) {
    d.prefix_items = &val;
    return ok();
  }

  status read_not(draft& d, std::string_view key, const value& val) {
    auto r = sub(d, val, key);
    if (!r) return r.err();
    d.out["not"] = std::move(*r);
    return ok();
  }

  status read_contains(draft& d, std::string_view key, const value& val) {
    auto r = sub(d, val, key);
    if (!r) return r.err();
    // contains S  ≡  not an array, or not (every item fails S)
    object every_fails, not_array, some_item;
    every_fails["items"] = object{{"not", std::move(*r)}};
    some_item["not"] = std::move(every_fails);
    not_array["not"] = object{{"type", "array"}};
    object c;
    c["anyOf"] = json::array{std::move(not_array), std::move(some_item)};
    c[synthetic_tag] = "opentabs:contains";
    d.extras.push_back(std::move(c));
    return ok();
  }

  // Each of if/then/else is translated here, in keyword order, so its errors and its count
  // of subschemas come at the same point as any other keyword's; the three are combined
  // once all are read (assemble_conditional).
  status read_conditional(draft& d, std::string_view key, const value& val) {
    auto r = sub(d, val, key);
    if (!r) return r.err();
    if (key == "if") d.if_schema = &val;
    if (key == "then") d.then_schema = &val;
    if (key == "else") d.else_schema = &val;
    return ok();
  }

  status read_schema_list(draft& d, std::string_view key, const value& val) {
    auto r = schema_list(d, val, key);
    if (!r) return r.err();
    d.out[std::string(key)] = std::move(*r);
    return ok();
  }

  status read_property_names(draft& d, std::string_view, const value& val) {
    auto r = key_validator(val, d.at + "/propertyNames");
    if (!r) return r.err();
    d.names_rejects = std::move(*r);
    return ok();
  }

  status read_pattern(draft& d, std::string_view, const value& val) {
    if (!val.is_string()) return fail(d.at + "/pattern", "must be a string");
    auto re = compile_pattern(val.get_string());
    if (!re) return fail(d.at + "/pattern", re.err().message);
    d.sc.pattern = std::move(*re);
    d.has_sc = true;
    return ok();
  }

  status read_format(draft& d, std::string_view, const value& val) {
    if (!val.is_string()) return fail(d.at + "/format", "must be a string");
    if (is_checked_format(val.get_string())) {
      d.sc.format = std::string(val.get_string());
      d.has_sc = true;
    }
    return ok();
  }

  // minimum/maximum, made exclusive by a draft-04 boolean exclusiveMinimum/exclusiveMaximum.
  status read_bound(draft& d, std::string_view key, const value& val) {
    auto n = number(d, val, key);
    if (!n) return n.err();
    bool is_min = key == "minimum";
    bool draft4_excl = false;
    if (auto* e = json::find(d.in, is_min ? "exclusiveMinimum" : "exclusiveMaximum"); e && e->is_bool())
      draft4_excl = e->get_bool();
    tighten(is_min ? d.lower : d.upper, is_min ? d.lower_excl : d.upper_excl, *n, draft4_excl, is_min);
    return ok();
  }

  status read_exclusive_bound(draft& d, std::string_view key, const value& val) {
    if (val.is_bool()) return ok();  // draft-04 form, read together with minimum/maximum
    auto n = number(d, val, key);
    if (!n) return n.err();
    bool is_min = key == "exclusiveMinimum";
    tighten(is_min ? d.lower : d.upper, is_min ? d.lower_excl : d.upper_excl, *n, true, is_min);
    return ok();
  }

  status read_multiple_of(draft& d, std::string_view key, const value& val) {
    auto n = number(d, val, key);
    if (!n) return n.err();
    if (!(n->to_number<double>() > 0)) return fail(d.at + "/multipleOf", "must be greater than 0");
    d.out["multipleOf"] = val;
    return ok();
  }

  // minLength, maxItems, ...: a non-negative integer that fits 32 bits.
  status read_count(draft& d, std::string_view key, const value& val) {
    auto n = val.is_number() ? val.to_number<double>() : -1.0;
    if (!val.is_number() || n < 0 || n != std::floor(n) || n > 4294967295.0)
      return fail(d.at + "/" + std::string(key), "must be a non-negative integer");
    d.out[std::string(key)] = value(static_cast<std::uint64_t>(n));
    return ok();
  }

  status read_unique_items(draft& d, std::string_view, const value& val) {
    if (!val.is_bool()) return fail(d.at + "/uniqueItems", "must be a boolean");
    if (val.get_bool()) d.out["uniqueItems"] = true;
    return ok();
  }

  status read_required(draft& d, std::string_view, const value& val) {
    if (!val.is_array()) return fail(d.at + "/required", "must be an array of property names");
    for (auto& n : val.get_array())
      if (!n.is_string()) return fail(d.at + "/required", "must be an array of property names");
    if (!val.get_array().empty()) d.out["required"] = val;
    return ok();
  }

  // OpenAPI's nullable: true adds "null" to the listed types.
  status read_nullable(draft& d, std::string_view, const value& val) {
    if (val.is_bool() && val.get_bool()) d.nullable = true;
    return ok();
  }

  // --- assembling the draft once every keyword is read

  result<value> assemble(draft& d) {
    if (d.nullable) add_null_type(d.out);
    if (d.const_enum) apply_const(d);
    if (auto s = assemble_items(d); !s) return s.err();
    if (auto s = assemble_conditional(d); !s) return s.err();
    emit_bounds(d);
    if (d.has_sc) d.out["pattern"] = check_marker(add_check(std::move(d.sc)));
    declare_implicit_properties(d.out, d.pattern_props);
    if (!d.pattern_props.empty() || d.names_rejects) assemble_key_rules(d.out, d.pattern_props, std::move(d.names_rejects));
    move_ref_beside_siblings(d);
    append_extras(d);
    return value(std::move(d.out));
  }

  static void add_null_type(object& out) {
    auto* t = out.if_contains("type");
    if (!t) return;
    json::array types;
    if (t->is_string()) types.push_back(*t);
    else types = t->get_array();
    bool has_null = false;
    for (auto& x : types) has_null = has_null || (x.is_string() && x.get_string() == "null");
    if (!has_null) types.push_back("null");
    *t = std::move(types);
  }

  // const next to enum keeps the enum's values equal to the const (none: nothing validates).
  static void apply_const(draft& d) {
    auto* e = d.out.if_contains("enum");
    if (!e) {
      d.out["enum"] = std::move(*d.const_enum);
      return;
    }
    json::array keep;
    for (auto& x : e->get_array())
      if (x == (*d.const_enum)[0]) keep.push_back(x);
    if (keep.empty()) d.extras.push_back(false_schema());
    else *e = std::move(keep);
  }

  // prefixItems (2020-12) = draft-04 array-form items; 2020-12 items after it = additionalItems.
  status assemble_items(draft& d) {
    if (d.prefix_items) {
      d.out.erase("additionalItems");  // not a 2020-12 keyword: next to prefixItems it is ignored
      auto r = schema_list(d, *d.prefix_items, "prefixItems");
      if (!r) return r.err();
      d.out["items"] = std::move(*r);
      if (!d.items) return ok();
      if (d.items->is_bool()) {
        d.out["additionalItems"] = *d.items;
        return ok();
      }
      auto a = sub(d, *d.items, "items");
      if (!a) return a.err();
      d.out["additionalItems"] = std::move(*a);
    } else if (d.items) {
      auto r = d.items->is_array() ? schema_list(d, *d.items, "items") : sub(d, *d.items, "items");
      if (!r) return r.err();
      d.out["items"] = std::move(*r);
    }
    return ok();
  }

  // Draft-04 has no if/then/else: each branch becomes an anyOf in allOf.
  status assemble_conditional(draft& d) {
    if (!d.if_schema || !(d.then_schema || d.else_schema)) return ok();
    auto cond = sub(d, *d.if_schema, "if");
    if (!cond) return cond.err();
    if (d.then_schema) {  // if → then  ≡  not(if) or then
      auto t = sub(d, *d.then_schema, "then");
      if (!t) return t.err();
      object c;
      c["anyOf"] = json::array{object{{"not", *cond}}, std::move(*t)};
      c[synthetic_tag] = "opentabs:then";
      d.extras.push_back(std::move(c));
    }
    if (d.else_schema) {  // not(if) → else  ≡  if or else
      auto e = sub(d, *d.else_schema, "else");
      if (!e) return e.err();
      object c;
      c["anyOf"] = json::array{*cond, std::move(*e)};
      c[synthetic_tag] = "opentabs:else";
      d.extras.push_back(std::move(c));
    }
    return ok();
  }

  // The tightest bounds, in draft-04 form (boolean exclusiveMinimum/exclusiveMaximum).
  static void emit_bounds(draft& d) {
    if (d.lower) {
      d.out["minimum"] = std::move(*d.lower);
      if (d.lower_excl) d.out["exclusiveMinimum"] = true;
    }
    if (d.upper) {
      d.out["maximum"] = std::move(*d.upper);
      if (d.upper_excl) d.out["exclusiveMaximum"] = true;
    }
  }

  // Draft-04 ignores every sibling of "$ref"; 2020-12 applies them, so move the ref into allOf.
  static void move_ref_beside_siblings(draft& d) {
    if (!d.out.contains("$ref") || (d.out.size() == 1 && d.extras.empty())) return;
    object ref;
    ref["$ref"] = d.out["$ref"];
    d.out.erase("$ref");
    d.extras.insert(d.extras.begin(), value(std::move(ref)));
  }

  static void append_extras(draft& d) {
    if (d.extras.empty()) return;
    auto& all = d.out["allOf"].is_array() ? d.out["allOf"].get_array() : d.out["allOf"].emplace_array();
    for (auto& e : d.extras) all.push_back(std::move(e));
  }
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

namespace {

// "#" refers to the root; draft-04 RapidJSON cannot re-enter a root it is still
// building through another pointer, so the root's validation keywords move to
// $defs/__opentabs_root and every pointer is re-based onto it.
void rebase_root_if_referenced(value& doc) {
  bool root_ref = false;
  for_each_ref(doc, [&](json::string& ref) { root_ref = root_ref || ref == "#" || ref == "#/"; });
  if (!root_ref) return;
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

// Follows one reference through any chain of pure references to a schema: RapidJSON 1.1
// silently accepts anything for a dangling one, and recurses forever on a loop of them.
std::optional<error> check_ref_chain(const value& doc, std::string current) {
  std::set<std::string> seen;
  while (true) {
    auto p = ref_to_pointer(current);
    const value* target = p ? resolve_pointer(doc, *p) : nullptr;
    if (!target || !target->is_object())
      return make_error(errc::invalid_params, "schema: $ref \"" + current + "\" does not resolve to a schema");
    if (!seen.insert(current).second)
      return make_error(errc::invalid_params, "schema: $ref \"" + current + "\" is part of a reference cycle with no schema");
    if (!is_pure_ref(*target)) return std::nullopt;
    if (p->empty()) return std::nullopt;  // the root itself: a re-based root ref, resolved above
    current = std::string(target->get_object().at("$ref").get_string());
  }
}

// The first reference, in document order, that does not resolve or only loops.
std::optional<error> find_bad_ref(value& doc) {
  std::optional<error> bad;
  for_each_ref(doc, [&](json::string& ref) {
    if (!bad) bad = check_ref_chain(doc, std::string(ref));
  });
  return bad;
}

// What RapidJSON 1.1 cannot validate safely or in bounded time.
std::optional<error> check_rapidjson_limits(const value& doc, const limits& lim) {
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
  return std::nullopt;
}

}  // namespace

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
  rebase_root_if_referenced(doc);
  if (auto bad = find_bad_ref(doc)) return *bad;
  if (auto bad = check_rapidjson_limits(doc, lim)) return *bad;

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
    for (auto& kv : in)
      if (auto bad = keyword(kv.key(), kv.value(), depth)) return bad;
    // After the other keywords, as translator::node() does.
    if (auto bad = array_items(in, depth)) return bad;
    return conditional(in, depth);
  }

 private:
  std::optional<error> keyword(std::string_view key, const value& val, std::size_t depth) {
    if (is_annotation(key)) return std::nullopt;
    if (is_unsupported(key)) {
      scope s(at_, std::string(key));
      return fail("keyword \"" + std::string(key) + "\" is not supported");
    }
    if (key == "properties" || key == "patternProperties" || key == "$defs" || key == "definitions" ||
        key == "dependentSchemas")
      return map(val, key, depth);
    if (key == "dependencies" && val.is_object()) return schema_dependencies(val.get_object(), depth);
    if (key == "additionalProperties" || key == "additionalItems" || key == "not" || key == "contains") {
      scope s(at_, std::string(key));
      return node(val, depth + 1);
    }
    if (key == "allOf" || key == "anyOf" || key == "oneOf") return list(val, key, depth);
    if (key == "propertyNames" && val.is_object()) return property_names(val.get_object());
    return std::nullopt;
  }

  std::optional<error> map(const value& m, std::string_view key, std::size_t depth) {
    scope s(at_, std::string(key));
    if (!m.is_object()) return fail("must be an object of schemas");
    for (auto& entry : m.get_object()) {
      scope e(at_, escape_pointer_token(entry.key()));
      if (auto bad = node(entry.value(), depth + 1)) return bad;
    }
    return std::nullopt;
  }

  // The schemas among draft-04 dependencies (the others list property names).
  std::optional<error> schema_dependencies(const object& deps, std::size_t depth) {
    scope s(at_, "dependencies");
    for (auto& entry : deps) {
      if (entry.value().is_array()) continue;
      scope e(at_, escape_pointer_token(entry.key()));
      if (auto bad = node(entry.value(), depth + 1)) return bad;
    }
    return std::nullopt;
  }

  // Compiled as a schema of its own: its own depth and count, its refusal nested.
  std::optional<error> property_names(const object& schema) {
    prechecker inner(lim_);
    auto why = inner.object_node(schema, 0);
    if (!why) return std::nullopt;
    scope s(at_, "propertyNames");
    return fail(why->message);
  }

  std::optional<error> array_items(const object& in, std::size_t depth) {
    const value* prefix_items = in.if_contains("prefixItems");
    const value* items = in.if_contains("items");
    if (prefix_items) {
      if (auto bad = list(*prefix_items, "prefixItems", depth)) return bad;
      if (!items || items->is_bool()) return std::nullopt;
    } else if (!items) {
      return std::nullopt;
    } else if (items->is_array()) {
      return list(*items, "items", depth);
    }
    scope s(at_, "items");
    return node(*items, depth + 1);
  }

  std::optional<error> conditional(const object& in, std::size_t depth) {
    const value* if_schema = in.if_contains("if");
    const value* then_schema = in.if_contains("then");
    const value* else_schema = in.if_contains("else");
    if (!if_schema || !(then_schema || else_schema)) return std::nullopt;
    for (auto [k, s] : {std::pair{"if", if_schema}, {"then", then_schema}, {"else", else_schema}}) {
      if (!s) continue;
      scope e(at_, k);
      if (auto bad = node(*s, depth + 1)) return bad;
    }
    return std::nullopt;
  }

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
