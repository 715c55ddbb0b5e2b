// Each task is co_spawned with its own cancellation signal bound to the completion handler.
// The handler marks the task ended at once (waiters wake) but leaves the signal in place
// until a posted clean-up: asio may still touch the signal's slot while the handler runs.
#include "net/task_group.hpp"

#include <system_error>

#include "util/log.hpp"

namespace opentabs::net {

std::string failure_text(const std::exception_ptr& e) {
  if (!e) return {};
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& ex) {
    return ex.what();
  } catch (...) {
    return "unknown exception";
  }
}

std::function<void(std::exception_ptr)> log_failure(std::string what) {
  return [what = std::move(what)](std::exception_ptr e) {
    if (e) log::error(what + " failed: " + failure_text(e));
  };
}

namespace {

bool is_cancellation(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::system_error& ex) {
    return ex.code() == asio::error::operation_aborted;
  } catch (...) {
  }
  return false;
}

}  // namespace

struct task_group::state {
  explicit state(asio::any_io_executor e) : ex(std::move(e)) {}
  struct task {
    asio::cancellation_signal signal;
    bool ended = false;
  };
  asio::any_io_executor ex;
  std::list<task> tasks;
  std::size_t running = 0;
  std::vector<asio::steady_timer*> waiters;
  bool closed = false;

  void ended(std::list<task>::iterator it) {
    it->ended = true;
    if (--running == 0)
      for (auto* w : waiters) w->cancel();
  }
};

task_group::task_group(asio::any_io_executor ex) : s_(std::make_shared<state>(std::move(ex))) {}

bool task_group::spawn(awaitable<void> task, std::string what) {
  if (s_->closed) {
    log::debug(what + " not started: shutting down");
    return false;
  }
  auto it = s_->tasks.emplace(s_->tasks.end());
  ++s_->running;
  asio::co_spawn(s_->ex, std::move(task),
                 asio::bind_cancellation_slot(it->signal.slot(), [s = s_, it, what = std::move(what)](std::exception_ptr e) {
                   if (e) {
                     if (s->closed && is_cancellation(e))
                       log::debug(what + " cancelled");
                     else
                       log::error(what + " failed: " + failure_text(e));
                   }
                   s->ended(it);
                   asio::post(s->ex, [s, it] { s->tasks.erase(it); });
                 }));
  return true;
}

void task_group::cancel() {
  s_->closed = true;
  for (auto& t : s_->tasks)
    if (!t.ended) t.signal.emit(asio::cancellation_type::terminal);
}

awaitable<bool> task_group::wait(steady_clock::time_point deadline) {
  if (s_->running == 0) co_return true;
  auto s = s_;
  asio::steady_timer timer(s->ex, deadline);
  s->waiters.push_back(&timer);
  struct unregister {
    state& st;
    asio::steady_timer* t;
    ~unregister() { std::erase(st.waiters, t); }
  } guard{*s, &timer};
  co_await timer.async_wait(as_value);
  co_return s->running == 0;
}

std::size_t task_group::size() const { return s_->running; }
bool task_group::closed() const { return s_->closed; }
const asio::any_io_executor& task_group::executor() const { return s_->ex; }

}  // namespace opentabs::net
