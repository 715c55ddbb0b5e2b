// Newline-delimited message splitting (see line_splitter.hpp).
#include "bridge/line_splitter.hpp"

namespace opentabs::bridge {

void line_splitter::emit(output& out) {
  if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
  bool blank = partial_.find_first_not_of(" \t") == std::string::npos;
  if (!blank) out.lines.push_back(std::move(partial_));
  partial_.clear();
}

void line_splitter::feed(std::string_view bytes, output& out) {
  while (!bytes.empty()) {
    auto nl = bytes.find('\n');
    std::string_view piece = bytes.substr(0, nl);
    if (discarding_) {
      if (nl == std::string_view::npos) return;
      discarding_ = false;
    } else if (partial_.size() + piece.size() > max_) {
      partial_.clear();
      ++out.oversized;
      if (nl == std::string_view::npos) {
        discarding_ = true;
        return;
      }
    } else {
      partial_.append(piece);
      if (nl == std::string_view::npos) return;
      emit(out);
    }
    bytes.remove_prefix(nl + 1);
  }
}

void line_splitter::finish(output& out) {
  if (!discarding_ && !partial_.empty()) emit(out);
  partial_.clear();
  discarding_ = false;
}

}  // namespace opentabs::bridge
