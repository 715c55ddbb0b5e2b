// The extension's tab events as debounced resource changes (see tab_changes.hpp).
#include "app/tab_changes.hpp"

#include "app/resource_uris.hpp"

namespace opentabs::app {

bool is_tab_change(std::string_view change) {
  return change == "opened" || change == "navigated" || change == "loaded" || change == "closed";
}

bool tab_change_batch::note(std::int64_t tab_id, std::string_view change) {
  const bool opens = !pending_;
  pending_ = true;
  if (change == "opened" || change == "closed") list_changed_ = true;
  // An opened tab has no subscribers yet; the others change what the tab's resources read.
  if (change != "opened") {
    if (updated_.size() < max_tabs || updated_.count(tab_id)) updated_.insert(tab_id);
    else list_changed_ = true;
  }
  return opens;
}

tools::resource_change tab_change_batch::take() {
  tools::resource_change out;
  out.list_changed = list_changed_;
  for (auto id : updated_) {
    auto uri = tab_uri(id);
    for (std::string_view view : {"/text", "/screenshot", "/snapshot"}) out.updated.push_back(uri + std::string(view));
    out.updated.push_back(std::move(uri));
  }
  updated_.clear();
  list_changed_ = false;
  pending_ = false;
  return out;
}

tab_changes::tab_changes(tools::server_events& events, net::task_group& tasks, std::chrono::milliseconds debounce)
    : events_(events), tasks_(tasks), debounce_(debounce) {
  token_ = events_.on_tab_changed([this](std::int64_t tab_id, std::string_view change) { on_tab(tab_id, change); });
}

tab_changes::~tab_changes() { events_.unsubscribe(token_); }

void tab_changes::on_tab(std::int64_t tab_id, std::string_view change) {
  if (batch_.note(tab_id, change) && !tasks_.spawn(announce_later(), "resource change announcement")) batch_.take();
}

net::awaitable<void> tab_changes::announce_later() {
  asio::steady_timer delay(co_await asio::this_coro::executor, debounce_);
  auto stop = tasks_.on_close([&delay] { delay.cancel(); });
  auto [ec] = co_await delay.async_wait(net::as_value);
  auto change = batch_.take();
  if (!ec) events_.resources_changed(change);
}

}  // namespace opentabs::app
