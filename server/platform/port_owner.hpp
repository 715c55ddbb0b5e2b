// Which process listens on a local TCP port, so that an error about a squatter on our port
// can name it ("pid 4242 (python3)").  Best effort: a process of another user may be
// invisible, and then nothing is named.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace opentabs::platform {

// The pid of a process listening on `port` (IPv4 or IPv6), if one can be seen.
std::optional<long> listening_process(std::uint16_t port);

// The short name of process `pid` (Linux: comm; macOS: proc_name; Windows: the image's
// file name), if it can be read.
std::optional<std::string> process_name(long pid);

}  // namespace opentabs::platform
