// A count of running tasks and an event its waiters wait on: the last task to end notifies
// it (the join point).
#include "net/task_group.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include "net/event.hpp"
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

struct task_group::state {
  explicit state(asio::any_io_executor e) : ex(e), all_ended(std::move(e)) {}
  asio::any_io_executor ex;
  std::size_t running = 0;
  event all_ended;
  std::map<std::uint64_t, std::function<void()>> stoppers;
  std::uint64_t next_stopper = 1;
  bool closed = false;

  void ended() {
    if (--running == 0) all_ended.notify_all();
  }
};

task_group::task_group(asio::any_io_executor ex) : s_(std::make_shared<state>(std::move(ex))) {}

bool task_group::spawn(awaitable<void> task, std::string what) {
  if (s_->closed) {
    log::debug(what + " not started: shutting down");
    return false;
  }
  ++s_->running;
  asio::co_spawn(s_->ex, std::move(task), [s = s_, what = std::move(what)](std::exception_ptr e) {
    if (e) log::error(what + " failed: " + failure_text(e));
    s->ended();
  });
  return true;
}

void task_group::close() {
  if (s_->closed) return;
  s_->closed = true;
  auto stoppers = std::move(s_->stoppers);
  s_->stoppers.clear();
  for (auto& [id, stop] : stoppers) stop();
}

task_group::stop_registration task_group::on_close(std::function<void()> stop) {
  stop_registration r;
  if (s_->closed) {
    stop();
    return r;
  }
  r.group_ = s_;
  r.id_ = s_->next_stopper++;
  s_->stoppers.emplace(r.id_, std::move(stop));
  return r;
}

task_group::stop_registration::stop_registration(stop_registration&& o) noexcept
    : group_(std::move(o.group_)), id_(std::exchange(o.id_, 0)) {}

task_group::stop_registration& task_group::stop_registration::operator=(stop_registration&& o) noexcept {
  if (this != &o) {
    reset();
    group_ = std::move(o.group_);
    id_ = std::exchange(o.id_, 0);
  }
  return *this;
}

task_group::stop_registration::~stop_registration() { reset(); }

void task_group::stop_registration::reset() {
  if (auto g = group_.lock(); g && id_ != 0) g->stoppers.erase(id_);
  group_.reset();
  id_ = 0;
}

awaitable<bool> task_group::wait(steady_clock::time_point deadline) {
  auto s = s_;  // the group may go while this waits
  bool before_deadline = true;
  while (s->running > 0 && before_deadline) before_deadline = co_await s->all_ended.wait_until(deadline);
  co_return s->running == 0;
}

std::size_t task_group::size() const { return s_->running; }
bool task_group::closed() const { return s_->closed; }
const asio::any_io_executor& task_group::executor() const { return s_->ex; }

}  // namespace opentabs::net
