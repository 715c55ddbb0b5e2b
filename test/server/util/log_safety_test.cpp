// Tests for what keeps server.log safe to write and to show (issue 13 item 10): control
// character escaping, size-bounded rotation, and the test fault knob's parser.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "test/support/test_os.hpp"
#include "util/control_chars.hpp"
#include "util/rotating_file.hpp"
#include "util/test_fault.hpp"

using namespace opentabs;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct scratch {
  fs::path dir;
  scratch() {
    dir = opentabs::testing::make_temp_dir("ot-log-test");
  }
  ~scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

}  // namespace

TEST_CASE("escape_control_chars: newlines, escapes, C0, C1, DEL and broken UTF-8 become visible") {
  CHECK(escape_control_chars("plain text: a=1, [x] {y} ~") == "plain text: a=1, [x] {y} ~");
  // A forged line stays on the line it came in.
  CHECK(escape_control_chars("ok\n[opentabs] 2026-01-01T00:00:00Z extension connected") ==
        "ok\\n[opentabs] 2026-01-01T00:00:00Z extension connected");
  CHECK(escape_control_chars("a\r\nb\tc") == "a\\r\\nb\\tc");
  CHECK(escape_control_chars("\x1b[2J\x1b]0;owned\x07") == "\\x1b[2J\\x1b]0;owned\\x07");
  CHECK(escape_control_chars(std::string("nul\0x", 5)) == "nul\\x00x");
  CHECK(escape_control_chars("del\x7f") == "del\\x7f");
  CHECK(escape_control_chars("csi \xc2\x9b" "31m") == "csi \\u009b31m");         // C1 CSI as UTF-8
  CHECK(escape_control_chars("raw \x9b" "31m") == "raw \\x9b31m");               // 8-bit CSI
  CHECK(escape_control_chars("bad \xc3 \xe2\x82 \xed\xa0\x80") == "bad \\xc3 \\xe2\\x82 \\xed\\xa0\\x80");
  CHECK(escape_control_chars("overlong \xc0\xaf \xe0\x80\xaf") == "overlong \\xc0\\xaf \\xe0\\x80\\xaf");
  // Valid UTF-8 outside the control ranges is kept.
  CHECK(escape_control_chars("caf\xc3\xa9 \xc2\xa0 \xe2\x82\xac \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xc2\xa0 \xe2\x82\xac \xf0\x9f\x98\x80");
  // Idempotent: `opentabs logs` may escape lines server.log already holds escaped.
  std::string once = escape_control_chars("x\n\x1b[0m\xc2\x85\\n");
  CHECK(escape_control_chars(once) == once);
}

TEST_CASE("rotating_file: rotates after a newline once max_bytes would be passed, keeping one old file") {
  scratch s;
  auto path = s.dir / "server.log";
  rotating_file f(path, 4096);
  REQUIRE(f.open().ok());
  std::string line(99, 'a');
  line += '\n';  // 100 bytes
  for (int i = 0; i < 40; ++i) f.write(line);  // 4000 bytes: fits
  CHECK(fs::file_size(path) == 4000);
  CHECK_FALSE(fs::exists(f.rotated_path()));
  f.write(line + line);  // would pass 4096: the old file ends at its last full line
  CHECK(fs::file_size(f.rotated_path()) == 4000);
  CHECK(fs::file_size(path) == 200);
  // A chunk that holds the end of one line and the start of the next is cut at the newline.
  std::string chunk(3800, 'b');
  chunk += "\nsecond-part-of-a-";
  f.write(chunk);
  f.write("line\n");
  f.write(std::string(200, 'c') + "\n");  // 200 + 3801 + 22 + 201 > 4096: rotate after "line\n"
  auto current = slurp(path);
  auto rotated = slurp(f.rotated_path());
  CHECK(current == std::string(200, 'c') + "\n");
  CHECK(rotated.size() == 200 + 3801 + 22);
  CHECK(rotated.ends_with("\nsecond-part-of-a-line\n"));
  // Many writes: never more than max_bytes in either file.
  for (int i = 0; i < 1000; ++i) f.write(line);
  CHECK(fs::file_size(path) <= 4096);
  CHECK(fs::file_size(f.rotated_path()) <= 4096);
  // A single line longer than the file limit is cut, still within the limit.
  f.write(std::string(10000, 'd') + "\n");
  CHECK(fs::file_size(path) <= 4096);
  CHECK(fs::file_size(f.rotated_path()) <= 4096);
}

TEST_CASE("rotating_file: an existing file over the limit is rotated on the first write; tiny limits are raised") {
  scratch s;
  auto path = s.dir / "server.log";
  { std::ofstream(path, std::ios::binary) << std::string(5000, 'x') << "\n"; }
  rotating_file f(path, 10);
  CHECK(f.max_bytes() == rotating_file::kMinMaxBytes);
  REQUIRE(f.open().ok());
  CHECK(f.size() == 5001);
  f.write("fresh\n");
  CHECK(slurp(path) == "fresh\n");
  CHECK(fs::file_size(f.rotated_path()) == 5001);
  // A chunk whose first line still fits: that line ends the file, the rest starts the next.
  f.write(std::string(4090 - 6 - 1, 'z') + "\n");  // the file now holds 4090 bytes
  f.write("x\n" + std::string(200, 'y') + "\n");
  CHECK(fs::file_size(f.rotated_path()) == 4092);
  CHECK(slurp(f.rotated_path()).ends_with("z\nx\n"));
  CHECK(slurp(path) == std::string(200, 'y') + "\n");
}

TEST_CASE("test fault knob: kind:target pairs, malformed entries skipped") {
  auto faults = test_fault::parse("ws-handler-throw:tab.syncAll,pipeline-throw:browser_list_tabs,,nocolon,:x,y:");
  REQUIRE(faults.size() == 2);
  CHECK(faults[0] == std::pair<std::string, std::string>{"ws-handler-throw", "tab.syncAll"});
  CHECK(faults[1] == std::pair<std::string, std::string>{"pipeline-throw", "browser_list_tabs"});
  CHECK(test_fault::parse("").empty());
  // The unit tests run without OPENTABS_TEST_FAULT: nothing is armed.
  CHECK_FALSE(test_fault::armed("ws-handler-throw", "tab.syncAll"));
}
