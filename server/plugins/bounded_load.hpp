// Loading a plugin with a deadline.  A plugin folder can sit on a slow or hung filesystem (NFS,
// a fuse mount): a read there can block for minutes, and no flag makes read(2) give up.  So each
// load is a bounded call (util/bounded_calls.hpp, the server's in net::blocking_pool) keyed by
// the folder: the caller waits at most `deadline`, and a load that misses it fails that plugin
// with a reason that says so.  A folder whose read is still stuck is not read a second time, so
// a hung folder holds one thread however often the plugins are reloaded and never takes the
// other plugins' places; with kMaxStuckLoads folders stuck at once, loads of other folders fail
// at once rather than add more threads.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string_view>

#include "plugins/loader.hpp"
#include "util/bounded_calls.hpp"

namespace opentabs::plugins {

inline constexpr std::size_t kMaxStuckLoads = 8;
inline constexpr std::chrono::milliseconds kDefaultLoadDeadline{10'000};

struct bounded_load_options {
  std::chrono::milliseconds deadline = kDefaultLoadDeadline;
  // Test knob: the load thread sleeps this long first (a stand-in for a slow filesystem,
  // which cannot be made here), for folders named `delay_dir_name` (all when empty).
  std::chrono::milliseconds test_delay{0};
  std::string delay_dir_name;
};

// The options from OPENTABS_PLUGIN_READ_DEADLINE_MS, OPENTABS_TEST_PLUGIN_READ_DELAY_MS and
// OPENTABS_TEST_PLUGIN_READ_DELAY_DIR.
bounded_load_options bounded_load_options_from_env();

// load_plugin(dir, source, options) within `bounds.deadline`, as a call of `reads` (built
// with kMaxStuckLoads in the server).  Extra errors: timeout, "reading the plugin's files did
// not finish within N ms …", and busy while reads of that many other folders are still stuck.
result<loaded_plugin> load_plugin_bounded(const fs::path& dir, std::string_view source, const load_options& options,
                                          const bounded_load_options& bounds, bounded_calls& reads);

}  // namespace opentabs::plugins
