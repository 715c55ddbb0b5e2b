// Descriptor hygiene for child processes: nothing but 0-2 survives into a child.
#include "util/descriptors.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace opentabs;

TEST_CASE("dup_cloexec gives a close-on-exec copy above the standard descriptors") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  int copy = dup_cloexec(fds[1]);
  REQUIRE(copy >= 3);
  CHECK((::fcntl(copy, F_GETFD) & FD_CLOEXEC) != 0);
  CHECK((::fcntl(fds[1], F_GETFD) & FD_CLOEXEC) == 0);
  ::close(copy);
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST_CASE("close_descriptors_from leaves a child only the descriptors below the bound") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);  // inheritable on purpose
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close_descriptors_from(3);
    bool pipe_closed = ::fcntl(fds[0], F_GETFD) < 0 && ::fcntl(fds[1], F_GETFD) < 0;
    bool stdio_open = ::fcntl(0, F_GETFD) >= 0 && ::fcntl(1, F_GETFD) >= 0 && ::fcntl(2, F_GETFD) >= 0;
    ::_exit(pipe_closed && stdio_open ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // Closing in the child leaves the parent's descriptors alone.
  CHECK(::fcntl(fds[0], F_GETFD) >= 0);
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST_CASE("close_descriptors_from keeps the one descriptor asked for") {
  int a[2], b[2];
  REQUIRE(::pipe(a) == 0);
  REQUIRE(::pipe(b) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close_descriptors_from(3, a[1]);
    bool kept = ::fcntl(a[1], F_GETFD) >= 0;
    bool others_closed = ::fcntl(a[0], F_GETFD) < 0 && ::fcntl(b[0], F_GETFD) < 0 && ::fcntl(b[1], F_GETFD) < 0;
    ::_exit(kept && others_closed ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  ::close(a[0]);
  ::close(a[1]);
  ::close(b[0]);
  ::close(b[1]);
}
