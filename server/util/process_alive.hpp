// Whether another process is still running, for the pid files and lock directories that
// name their owner (the CLI's server.pid, config.json.lock/pid.txt).
#pragma once

namespace opentabs {

// True while `pid` runs: it exists (kill(pid, 0) succeeds or is refused with EPERM, so a
// process of another user counts) and is not a zombie, which has exited and only waits to be
// reaped.
bool process_alive(long pid);

}  // namespace opentabs
