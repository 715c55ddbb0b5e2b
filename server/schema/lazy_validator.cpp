#include "schema/lazy_validator.hpp"

namespace opentabs::schema {

lazy_validator::lazy_validator(json::object schema, const limits& lim) : schema_(std::move(schema)), lim_(lim) {}

lazy_validator::lazy_validator(std::shared_ptr<const validator> compiled) {
  std::call_once(once_, [&] { outcome_.emplace(std::move(compiled)); });
  done_.store(true, std::memory_order_release);
}

lazy_validator::lazy_validator(error refused) {
  std::call_once(once_, [&] { outcome_.emplace(std::move(refused)); });
  done_.store(true, std::memory_order_release);
}

const result<std::shared_ptr<const validator>>& lazy_validator::get() const {
  std::call_once(once_, [this] {
    outcome_.emplace(validator::compile(schema_, lim_));
    schema_ = json::object();  // the validator keeps what it needs
    done_.store(true, std::memory_order_release);
  });
  return *outcome_;
}

std::shared_ptr<const lazy_validator> compile_on_first_use(json::object schema, const limits& lim) {
  return std::make_shared<const lazy_validator>(std::move(schema), lim);
}

}  // namespace opentabs::schema
