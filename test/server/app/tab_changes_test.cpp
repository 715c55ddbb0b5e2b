// The extension's tab events as debounced resource changes: what one batch announces.
#include <doctest/doctest.h>

#include "app/tab_changes.hpp"

#include <algorithm>

using namespace opentabs;
using namespace opentabs::app;

namespace {

bool names(const tools::resource_change& c, std::string_view uri) {
  return std::find(c.updated.begin(), c.updated.end(), uri) != c.updated.end();
}

}  // namespace

TEST_CASE("only the known changes are tab events") {
  for (auto c : {"opened", "navigated", "loaded", "closed"}) CHECK(is_tab_change(c));
  CHECK_FALSE(is_tab_change("focused"));
  CHECK_FALSE(is_tab_change(""));
}

TEST_CASE("a batch: the first event opens it; a busy tab is announced once; opening and closing change the listing") {
  tab_change_batch batch;
  CHECK(batch.note(5, "navigated"));
  for (int i = 0; i < 1000; ++i) CHECK_FALSE(batch.note(5, i % 2 ? "loaded" : "navigated"));
  auto first = batch.take();
  CHECK_FALSE(first.list_changed);
  CHECK(first.updated.size() == 4);  // the tab and its three views
  CHECK(names(first, "opentabs://tabs/5"));
  CHECK(names(first, "opentabs://tabs/5/text"));
  CHECK(names(first, "opentabs://tabs/5/screenshot"));
  CHECK(names(first, "opentabs://tabs/5/snapshot"));
  CHECK_FALSE(batch.pending());

  CHECK(batch.note(6, "opened"));  // a new batch
  auto opened = batch.take();
  CHECK(opened.list_changed);
  CHECK(opened.updated.empty());  // nobody can have subscribed to it yet

  batch.note(7, "closed");
  auto closed = batch.take();
  CHECK(closed.list_changed);
  CHECK(names(closed, "opentabs://tabs/7"));
}

TEST_CASE("a batch names at most max_tabs tabs; beyond, the listing is said to have changed") {
  tab_change_batch batch;
  for (std::int64_t id = 1; id <= static_cast<std::int64_t>(tab_change_batch::max_tabs) + 10; ++id) batch.note(id, "loaded");
  auto c = batch.take();
  CHECK(c.updated.size() == tab_change_batch::max_tabs * 4);
  CHECK(c.list_changed);
}
