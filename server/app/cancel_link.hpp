// Ties a caller's cancel_source to the wait a callee is in, for the scope of that wait: the
// callee (confirmations, the extension hub) makes one in its own frame with the action that
// ends its wait, and a cancel reaching the source runs it.  The caller only hands over the
// source it owns; nothing is written into the caller's frame.
#pragma once

#include <functional>
#include <memory>

#include "tools/tool_service.hpp"

namespace opentabs::app {

class cancel_link {
 public:
  cancel_link(const std::shared_ptr<tools::cancel_source>& source, std::function<void()> end_wait) : source_(source) {
    if (source_) source_->on_cancel(std::move(end_wait));
  }
  ~cancel_link() {
    if (source_) source_->clear_hook();
  }
  cancel_link(const cancel_link&) = delete;
  cancel_link& operator=(const cancel_link&) = delete;

 private:
  std::shared_ptr<tools::cancel_source> source_;
};

}  // namespace opentabs::app
