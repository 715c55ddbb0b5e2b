// A tool's validator, compiled the first time it is needed (a call, a validation) and
// kept from then on.  A start with many plugins would otherwise compile thousands of
// schemas that a session never calls, and hold every compiled browser-tool schema in an
// idle server's heap.  The schema bounds still apply: compiling goes through
// validator::compile with the limits given here.  The outcome — the validator or the compile error — is computed once
// and shared by every copy of the tool that holds this object.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

#include "json/json.hpp"
#include "schema/limits.hpp"
#include "schema/validator.hpp"
#include "util/result.hpp"

namespace opentabs::schema {

class lazy_validator {
 public:
  // `schema` is compiled with `lim` on the first get().
  explicit lazy_validator(json::object schema, const limits& lim = {});
  // A validator compiled elsewhere (a WebMCP page tool's, on the blocking pool).
  explicit lazy_validator(std::shared_ptr<const validator> compiled);
  // A schema already known not to compile (schema::precheck found why).
  explicit lazy_validator(error refused);

  lazy_validator(const lazy_validator&) = delete;
  lazy_validator& operator=(const lazy_validator&) = delete;

  // The validator, or why the schema does not compile (validator::compile's error): the
  // same answer on every call, the compile done at most once.  Safe to call from several
  // threads.
  const result<std::shared_ptr<const validator>>& get() const;

  // Whether the schema has been compiled (or refused) yet.
  bool compiled() const { return done_.load(std::memory_order_acquire); }

 private:
  mutable std::once_flag once_;
  mutable std::atomic<bool> done_{false};
  mutable json::object schema_;  // released once compiled
  limits lim_;
  mutable std::optional<result<std::shared_ptr<const validator>>> outcome_;
};

// A tool's lazily compiled validator, shared by the copies of its definition.
std::shared_ptr<const lazy_validator> compile_on_first_use(json::object schema, const limits& lim = {});

}  // namespace opentabs::schema
