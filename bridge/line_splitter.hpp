// Splits the bridge's stdin into newline-delimited messages (MCP stdio transport: one
// JSON-RPC message per line).  Sans-I/O and bounded: a line longer than the limit is
// dropped (the caller is told once, so it can answer with an error) and the splitter
// resynchronises at the next newline instead of buffering without end.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace opentabs::bridge {

inline constexpr std::size_t kDefaultMaxLineBytes = 16 * 1024 * 1024;

class line_splitter {
 public:
  struct output {
    std::vector<std::string> lines;  // complete lines without "\n" / "\r\n"; blank lines skipped
    std::size_t oversized = 0;       // lines dropped for exceeding the limit
  };

  explicit line_splitter(std::size_t max_line_bytes = kDefaultMaxLineBytes) : max_(max_line_bytes) {}

  void feed(std::string_view bytes, output& out);
  // End of input: an unterminated last line still counts as a message.
  void finish(output& out);

 private:
  void emit(output& out);

  std::size_t max_;
  std::string partial_;
  bool discarding_ = false;  // inside an oversized line, waiting for its newline
};

}  // namespace opentabs::bridge
