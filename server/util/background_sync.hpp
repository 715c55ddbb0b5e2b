// Makes files durable off the start-up path.  The files the server derives from others —
// the extension copy, the plugin adapters, extension/server.json — are compared with their
// sources at every start and rewritten when they differ, so they are written without
// waiting for the disk (temp file + rename, see write_file_unsynced: complete or absent,
// never torn, SIGKILL included) and then flushed by one platform::flush_filesystem of their file system on
// a thread of its own, so a first start does not wait for the disk.  The files users cannot regenerate (config.json, auth.json, the audit log)
// are not this class's business: they are synced before their writers return.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

#include "util/result.hpp"

namespace opentabs {

class background_sync {
 public:
  // Opens `dir` now, so that running out of descriptors later cannot stop a flush; flushes
  // nothing yet.  An error when it cannot be opened.
  static result<std::unique_ptr<background_sync>> open(const std::filesystem::path& dir);

  // Waits for a flush under way and one still requested.
  ~background_sync();
  background_sync(const background_sync&) = delete;
  background_sync& operator=(const background_sync&) = delete;

  // Asks for a flush of everything written so far; returns at once.  Requests made while a
  // flush runs are served by one more flush after it.
  void request();

  // Blocks until every flush requested so far has finished.
  void wait();

  // Flushes finished (each covering every request made before it started).
  std::uint64_t completed() const;

  // The error of the last flush that failed ("" when none did).
  std::string last_error() const;

 private:
  explicit background_sync(std::filesystem::path dir) : dir_(std::move(dir)) {}
  void run();

  std::filesystem::path dir_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::uint64_t requested_ = 0;  // requests so far
  std::uint64_t started_ = 0;    // requests the flush under way (or the last) covers
  std::uint64_t served_ = 0;     // requests covered by finished flushes
  std::uint64_t completed_ = 0;
  std::string last_error_;
  bool stopping_ = false;
  std::thread thread_;  // started by the first request
};

}  // namespace opentabs
