#include "plugins/bounded_load.hpp"

#include <atomic>
#include <cstdlib>
#include <future>
#include <memory>
#include <mutex>
#include <map>
#include <optional>
#include <thread>

#include "util/env.hpp"

namespace opentabs::plugins {

namespace {

// The folders whose read missed its deadline and has not ended yet, with that read's
// outcome to come: one entry, and one thread, per folder however often it is reloaded.
std::mutex stuck_mutex;
std::map<std::string, std::shared_future<result<loaded_plugin>>> stuck_reads;

void forget_stuck(const std::string& key) {
  std::lock_guard lock(stuck_mutex);
  stuck_reads.erase(key);
}

error missed_deadline(const bounded_load_options& bounds) {
  return make_error(errc::timeout, "reading the plugin's files did not finish within " + std::to_string(bounds.deadline.count()) +
                                       " ms (a slow or hung filesystem?); the plugin is skipped until a reload reads it in time");
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
                                          const bounded_load_options& bounds) {
  const std::string key = dir.lexically_normal().string();
  std::optional<std::shared_future<result<loaded_plugin>>> earlier;
  {
    std::lock_guard lock(stuck_mutex);
    if (auto it = stuck_reads.find(key); it != stuck_reads.end()) earlier = it->second;
    else if (stuck_reads.size() >= kMaxStuckLoads)
      return make_error(errc::busy, std::to_string(kMaxStuckLoads) +
                                        " plugin folders have reads that have not finished (a hung filesystem?); "
                                        "this plugin is not read until one of them ends. Check the disk that "
                                        "holds " + dir.string());
  }
  // The folder's earlier read still hangs: wait for it, not for a second thread.
  if (earlier) {
    if (earlier->wait_for(bounds.deadline) != std::future_status::ready) return missed_deadline(bounds);
    return earlier->get();
  }
  // Whichever of the load thread and this waiter comes second sees `settled` already set: the
  // thread then gives back its place among the stuck reads, the waiter takes the result.
  struct shared_load {
    std::promise<result<loaded_plugin>> done;
    std::atomic<bool> settled{false};
  };
  auto state = std::make_shared<shared_load>();
  std::shared_future<result<loaded_plugin>> outcome = state->done.get_future().share();
  std::chrono::milliseconds delay{0};
  if (bounds.test_delay.count() > 0 && (bounds.delay_dir_name.empty() || dir.filename() == bounds.delay_dir_name))
    delay = bounds.test_delay;
  std::thread([state, dir, key, source = std::string(source), options, delay] {
    if (delay.count() > 0) std::this_thread::sleep_for(delay);
    state->done.set_value(load_plugin(dir, source, options));
    if (state->settled.exchange(true)) forget_stuck(key);
  }).detach();
  if (outcome.wait_for(bounds.deadline) == std::future_status::ready) return outcome.get();
  {
    std::lock_guard lock(stuck_mutex);
    stuck_reads.emplace(key, outcome);
  }
  if (state->settled.exchange(true)) {
    forget_stuck(key);
    return outcome.get();
  }
  return missed_deadline(bounds);
}

}  // namespace opentabs::plugins
