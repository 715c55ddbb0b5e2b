// Reading a file of a plugin folder.  Plugin folders come from npm or a cloned repository, and
// git carries symbolic links, so a file there may be a link to ~/.ssh/id_rsa or /dev/stdin, or
// a FIFO: reading it as-is would hand a private file to the extension and the MCP client, or
// hang the server.  Only regular files are read, found without leaving the plugin folder (a
// link is followed only when it stays inside), opened with O_NOFOLLOW and O_NONBLOCK (a FIFO
// swapped in after the check cannot block the open), checked again with fstat, and refused
// when larger than the cap before a byte is read.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace opentabs::plugins {

// `rel` under the plugin folder `root` (canonical).  Errors: "not_found", "too_large",
// "unsafe_file" (a link out of the folder, a FIFO, device, socket or directory; the message
// names the file and the rule), "io".
result<std::string> read_plugin_file(const std::filesystem::path& root, std::string_view rel, std::size_t max_bytes);

}  // namespace opentabs::plugins
