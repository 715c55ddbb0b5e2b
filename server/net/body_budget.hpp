// The bytes that requests without the secret may keep buffered, shared by all of them.
// The server screens every head before it reads a body; a request that
// is admitted without authentication (the minimal /health, conformance-mode /mcp) leases
// its announced Content-Length here first, and gets 503 when the pool is spent.  The lease
// gives the bytes back when the request is done.  Copies share one pool, and a lease keeps
// the pool alive, so a connection coroutine torn down late cannot touch a freed pool.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>

namespace opentabs::net {

class body_budget {
  struct pool {
    std::size_t capacity = 0;
    std::size_t used = 0;
  };

 public:
  explicit body_budget(std::size_t capacity);

  class lease {
   public:
    lease(lease&& other) noexcept;
    lease& operator=(lease&& other) noexcept;
    lease(const lease&) = delete;
    lease& operator=(const lease&) = delete;
    ~lease();
    std::size_t bytes() const { return bytes_; }

   private:
    friend class body_budget;
    lease(std::shared_ptr<pool> p, std::size_t bytes) : pool_(std::move(p)), bytes_(bytes) {}
    void give_back();
    std::shared_ptr<pool> pool_;
    std::size_t bytes_ = 0;
  };

  // Takes `bytes` from the pool; nullopt when that would exceed its capacity.
  std::optional<lease> take(std::size_t bytes);
  std::size_t in_use() const { return pool_->used; }
  std::size_t capacity() const { return pool_->capacity; }

 private:
  std::shared_ptr<pool> pool_;
};

}  // namespace opentabs::net
