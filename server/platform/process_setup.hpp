// Process-wide settings a server makes once at start: enough descriptors for its
// connection slots, and writes to a closed socket or pipe reported as errors instead of
// killing the process (POSIX SIGPIPE).
#pragma once

#include <cstdint>

namespace opentabs::platform {

// Raises the soft limit on open files toward min(hard limit, `enough`); false when it was
// needed and refused.  Windows has no such per-process limit for sockets: always true.
bool raise_open_file_limit(std::uint64_t enough) noexcept;

// Hands memory the allocator keeps after a burst of work back to the OS (glibc:
// malloc_trim; macOS: malloc_zone_pressure_relief; Windows: _heapmin).
void release_free_memory() noexcept;

// Makes a write to a peer that went away fail with an error (EPIPE) rather than a signal.
void ignore_broken_pipes() noexcept;

}  // namespace opentabs::platform
