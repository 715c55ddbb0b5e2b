// Connects a caller's cancel_source to the wait a call is currently in, for the scope of
// that wait: the waiter (confirmations, the extension hub) publishes its "cancel me"
// function in `hook`, and a cancel reaching the source calls it.
#pragma once

#include <functional>
#include <memory>

#include "tools/tool_service.hpp"

namespace opentabs::app {

class cancel_link {
 public:
  explicit cancel_link(const std::shared_ptr<tools::cancel_source>& source) : source_(source) {
    if (source_) source_->on_cancel([this] {
        if (hook) hook();
      });
  }
  ~cancel_link() {
    if (source_) source_->clear_hook();
  }
  cancel_link(const cancel_link&) = delete;
  cancel_link& operator=(const cancel_link&) = delete;

  std::function<void()> hook;

 private:
  std::shared_ptr<tools::cancel_source> source_;
};

}  // namespace opentabs::app
