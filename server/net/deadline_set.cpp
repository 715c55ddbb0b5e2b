// The server's deadline_set: basic_deadline_set on asio::steady_timer.
#include "net/deadline_set.hpp"

#include "net/deadline_set.ipp"

namespace opentabs::net {

template class basic_deadline_set<asio::steady_timer>;

}  // namespace opentabs::net
