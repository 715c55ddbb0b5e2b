#include "plugins/plugin_files.hpp"
#include "plugins/plugin_failure.hpp"

#include "platform/file_handle.hpp"

namespace opentabs::plugins {

namespace fs = std::filesystem;

namespace {

bool inside(const fs::path& child, const fs::path& root) {
  auto c = child.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++c)
    if (c == child.end() || *c != *r) return false;
  return true;
}

error unsafe(std::string_view rel, const std::string& why) {
  return make_error(plugin_failure::unsafe_file, std::string(rel) + " " + why);
}

const char* kind_name(platform::file_kind kind) {
  switch (kind) {
    case platform::file_kind::fifo: return "a FIFO";
    case platform::file_kind::device: return "a device";
    case platform::file_kind::socket: return "a socket";
    case platform::file_kind::directory: return "a directory";
    default: return "not a regular file";
  }
}

}  // namespace

result<std::string> read_plugin_file(const fs::path& root, std::string_view rel, std::size_t max_bytes) {
  std::error_code ec;
  fs::path real = fs::canonical(root / rel, ec);
  if (ec) {
    if (ec == std::errc::no_such_file_or_directory) return make_error(errc::not_found, std::string(rel) + " does not exist");
    return make_error(errc::io, std::string(rel) + " cannot be resolved: " + ec.message());
  }
  if (!inside(real, root)) return unsafe(rel, "is a symbolic link that leads out of the plugin folder; it was not read");
  platform::file_facts st;
  if (auto e = platform::facts_of(real, st, false)) return make_error(errc::io, std::string(rel) + ": " + e.message());
  if (st.kind != platform::file_kind::regular)
    return unsafe(rel, std::string("is ") + kind_name(st.kind) + "; a plugin may contain only regular files");
  auto file = platform::file_handle::open(real, platform::file_handle::access::read, 0, ec);
  if (ec) return make_error(errc::io, std::string(rel) + " cannot be opened: " + ec.message());
  // The file may have been replaced between the check and the open.
  if (file.facts(st) || st.kind != platform::file_kind::regular)
    return unsafe(rel, "changed into something that is not a regular file while it was opened");
  if (st.size > max_bytes)
    return make_error(errc::too_large, std::string(rel) + " is larger than " + std::to_string(max_bytes) + " bytes");
  std::string out;
  out.resize(static_cast<std::size_t>(st.size));
  std::size_t got = 0;
  // A file that grows while it is read is cut at the size the open handle saw.
  while (got < out.size()) {
    auto n = file.read_some(out.data() + got, out.size() - got);
    if (n < 0) return make_error(errc::io, std::string(rel) + " cannot be read");
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  out.resize(got);
  return out;
}

}  // namespace opentabs::plugins
