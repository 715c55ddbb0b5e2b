// The kernel's share of one request/answer on this machine, without any server code: two
// processes ping-pong 32 bytes over loopback TCP, the echo side blocking in epoll_wait
// (edge-triggered, non-blocking socket, reading until EAGAIN) as an Asio io_context does.
// Prints the echo side's user and system CPU per round trip.  A relayed call costs the
// server two such round trips (client -> server -> extension -> server -> client) plus the
// invocation notice and the audit line, so this bounds what any server can reach here.
// Built and run by bench/bench.mjs: c++ -O2 -o <tmp>/loopback_floor bench/loopback_floor.cpp
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace {

struct cpu_micros {
  double user, sys;
};

cpu_micros self_cpu() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  return {r.ru_utime.tv_sec * 1e6 + r.ru_utime.tv_usec, r.ru_stime.tv_sec * 1e6 + r.ru_stime.tv_usec};
}

void no_delay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 20000;
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(listener, 1) != 0 ||
      getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    std::perror("listen");
    return 1;
  }
  const pid_t client = fork();
  if (client < 0) {
    std::perror("fork");
    return 1;
  }
  if (client == 0) {  // the client: send, wait for the echo, again
    int c = socket(AF_INET, SOCK_STREAM, 0);
    no_delay(c);
    if (connect(c, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) _exit(1);
    char buf[64] = {};
    for (int i = 0; i < rounds; ++i) {
      if (send(c, buf, 32, 0) != 32) _exit(1);
      for (ssize_t got = 0; got < 32;) {
        ssize_t k = recv(c, buf, sizeof buf, 0);
        if (k <= 0) _exit(1);
        got += k;
      }
    }
    _exit(0);
  }
  int s = accept(listener, nullptr, nullptr);
  no_delay(s);
  fcntl(s, F_SETFL, O_NONBLOCK);
  int ep = epoll_create1(0);
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLET;
  ev.data.fd = s;
  epoll_ctl(ep, EPOLL_CTL_ADD, s, &ev);
  const auto before = self_cpu();
  long echoed = 0;
  char buf[64];
  while (echoed < 32L * rounds) {
    epoll_event out[4];
    if (epoll_wait(ep, out, 4, -1) < 0) continue;
    for (;;) {
      ssize_t k = recv(s, buf, sizeof buf, 0);
      if (k <= 0) break;
      if (send(s, buf, static_cast<size_t>(k), 0) != k) return 1;
      echoed += k;
    }
  }
  const auto after = self_cpu();
  int status = 0;
  wait(&status);
  std::printf("{\"rounds\":%d,\"user_us\":%.2f,\"sys_us\":%.2f}\n", rounds, (after.user - before.user) / rounds,
              (after.sys - before.sys) / rounds);
  return status == 0 ? 0 : 1;
}
