#include "net/body_budget.hpp"

#include <utility>

namespace opentabs::net {

body_budget::body_budget(std::size_t capacity) : pool_(std::make_shared<pool>()) { pool_->capacity = capacity; }

std::optional<body_budget::lease> body_budget::take(std::size_t bytes) {
  if (bytes > pool_->capacity - pool_->used) return std::nullopt;
  pool_->used += bytes;
  return lease(pool_, bytes);
}

body_budget::lease::lease(lease&& other) noexcept
    : pool_(std::move(other.pool_)), bytes_(std::exchange(other.bytes_, 0)) {}

body_budget::lease& body_budget::lease::operator=(lease&& other) noexcept {
  if (this != &other) {
    give_back();
    pool_ = std::move(other.pool_);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

body_budget::lease::~lease() { give_back(); }

void body_budget::lease::give_back() {
  if (pool_) pool_->used -= bytes_;
  pool_.reset();
  bytes_ = 0;
}

}  // namespace opentabs::net
