#include "plugins/bounded_load.hpp"

#include <atomic>
#include <cstdlib>
#include <future>
#include <memory>
#include <thread>

#include "util/env.hpp"

namespace opentabs::plugins {

namespace {

std::atomic<std::size_t> stuck_loads{0};

}  // namespace

bounded_load_options bounded_load_options_from_env() {
  bounded_load_options o;
  if (auto d = env_milliseconds("OPENTABS_PLUGIN_READ_DEADLINE_MS", 1, max_env_milliseconds)) o.deadline = *d;
  if (auto d = env_milliseconds("OPENTABS_TEST_PLUGIN_READ_DELAY_MS", 0, max_env_milliseconds)) o.test_delay = *d;
  if (const char* dir = std::getenv("OPENTABS_TEST_PLUGIN_READ_DELAY_DIR")) o.delay_dir_name = dir;
  return o;
}

result<loaded_plugin> load_plugin_bounded(const fs::path& dir, std::string_view source, const load_options& options,
                                          const bounded_load_options& bounds) {
  if (stuck_loads.load() >= kMaxStuckLoads)
    return make_error(errc::busy, std::to_string(kMaxStuckLoads) +
                                      " earlier reads of plugin files have not finished (a hung filesystem?); "
                                      "this plugin is not read until one of them ends. Check the disk that "
                                      "holds " + dir.string());
  // Whichever of the load thread and this waiter comes second sees `settled` already set: the
  // thread then gives back its place among the stuck loads, the waiter takes the result.
  struct shared_load {
    std::promise<result<loaded_plugin>> done;
    std::atomic<bool> settled{false};
  };
  auto state = std::make_shared<shared_load>();
  auto outcome = state->done.get_future();
  std::chrono::milliseconds delay{0};
  if (bounds.test_delay.count() > 0 && (bounds.delay_dir_name.empty() || dir.filename() == bounds.delay_dir_name))
    delay = bounds.test_delay;
  std::thread([state, dir, source = std::string(source), options, delay] {
    if (delay.count() > 0) std::this_thread::sleep_for(delay);
    state->done.set_value(load_plugin(dir, source, options));
    if (state->settled.exchange(true)) --stuck_loads;
  }).detach();
  if (outcome.wait_for(bounds.deadline) == std::future_status::ready) return outcome.get();
  ++stuck_loads;
  if (state->settled.exchange(true)) {
    --stuck_loads;
    return outcome.get();
  }
  return make_error(errc::timeout, "reading the plugin's files did not finish within " +
                                        std::to_string(bounds.deadline.count()) + " ms (a slow or hung filesystem?); " +
                                        "the plugin is skipped until a reload reads it in time");
}

}  // namespace opentabs::plugins
