// Descriptor hygiene for child processes: a program we start must inherit exactly the
// descriptors we give it (0, 1, 2), never our sockets, the client's pipes or log files —
// an inherited pipe end keeps a client waiting for EOF that never comes.
#pragma once

namespace opentabs {

// Closes every descriptor >= `lowest` except `keep` (e.g. a close-on-exec pipe that reports
// an exec failure).  Async-signal-safe: for the child between fork and exec.  Uses
// close_range(2), falling back to closing up to the descriptor limit on kernels without it.
void close_descriptors_from(int lowest, int keep = -1) noexcept;

// Duplicates `fd` to a new descriptor (>= 3) with FD_CLOEXEC set, or -1.
int dup_cloexec(int fd) noexcept;

}  // namespace opentabs
