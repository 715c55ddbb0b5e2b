#include "plugins/bounded_load.hpp"

#include <cstdlib>
#include <thread>

#include "util/env.hpp"

namespace opentabs::plugins {

namespace {

error missed_deadline(const bounded_load_options& bounds) {
  return make_error(errc::timeout, "reading the plugin's files did not finish within " + std::to_string(bounds.deadline.count()) +
                                       " ms (a slow or hung filesystem?); the plugin is skipped until a reload reads it in time");
}

error too_many_stuck(const fs::path& dir, std::size_t stuck) {
  return make_error(errc::busy, std::to_string(stuck) +
                                    " plugin folders have reads that have not finished (a hung filesystem?); "
                                    "this plugin is not read until one of them ends. Check the disk that "
                                    "holds " + dir.string());
}

}  // namespace

bounded_load_options bounded_load_options_from_env() {
  bounded_load_options o;
  if (auto d = env_milliseconds("OPENTABS_PLUGIN_READ_DEADLINE_MS", 1, max_env_milliseconds)) o.deadline = *d;
  if (auto d = env_milliseconds("OPENTABS_TEST_PLUGIN_READ_DELAY_MS", 0, max_env_milliseconds)) o.test_delay = *d;
  if (const char* dir = std::getenv("OPENTABS_TEST_PLUGIN_READ_DELAY_DIR")) o.delay_dir_name = dir;
  return o;
}

result<loaded_plugin> load_plugin_bounded(const fs::path& dir, std::string_view source, const load_options& options,
                                          const bounded_load_options& bounds, bounded_calls& reads) {
  std::chrono::milliseconds delay{0};
  if (bounds.test_delay.count() > 0 && (bounds.delay_dir_name.empty() || dir.filename() == bounds.delay_dir_name))
    delay = bounds.test_delay;
  std::function<result<loaded_plugin>()> read = [dir, source = std::string(source), options, delay] {
    // The stand-in for a hung read (the test knob), on the read's own thread.
    if (delay.count() > 0) std::this_thread::sleep_for(delay);
    return load_plugin(dir, source, options);
  };
  auto r = reads.call(dir.lexically_normal().string(), std::move(read), bounds.deadline);
  if (r) return std::move(*r);
  if (r.err().is(errc::timeout)) return missed_deadline(bounds);
  if (r.err().is(errc::busy)) return too_many_stuck(dir, reads.max_stuck());
  return r.err();
}

}  // namespace opentabs::plugins
