// The methods one side of a JSON-RPC channel handles, registered in one table: name →
// handler, the params it takes, whether requests and/or notifications are meant, and its
// rate-limit class.  Looking a method up replaces if-chains over method names, and a name
// that is not in the table is -32601 for requests (and ignored for notifications) in one
// place.  The handler type is the caller's (a plain function, or one returning an awaitable).
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace opentabs::jsonrpc {

// What a method takes as params.  Both accept absent params; a non-object is rejected by
// the channel before the handler runs (-32602 for a request).
enum class params_kind {
  object,  // the handler reads named fields of an object
  none,    // the method takes no params; any sent are ignored
};

// Which calls a method answers.  A notification of a request-only method (or the reverse)
// is ignored, as for an unknown method.
enum class call_kind { request, notification, either };

// How a method counts against a connection's inbound rate limit.
enum class rate_class {
  limited,  // dropped while the connection is over its rate (unsolicited traffic)
  exempt,   // always handled (answers progress of our own requests; cheap keep-alives)
};

template <class Handler>
class method_table {
 public:
  struct entry {
    Handler handler;
    params_kind params = params_kind::object;
    call_kind calls = call_kind::either;
    rate_class rate = rate_class::limited;

    bool answers(bool is_request) const {
      return calls == call_kind::either || (calls == call_kind::request) == is_request;
    }
  };

  // Registers `name`; a second registration of a name is a programming error.
  method_table& add(std::string name, entry e) {
    if (!entries_.emplace(name, std::move(e)).second) throw std::logic_error("method registered twice: " + name);
    return *this;
  }

  // The entry for `name`, or null when the side does not handle it.
  const entry* find(std::string_view name) const {
    auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
  }

  // The entry when it answers this kind of call, else null.
  const entry* find(std::string_view name, bool is_request) const {
    const entry* e = find(name);
    return e && e->answers(is_request) ? e : nullptr;
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    out.reserve(entries_.size());
    for (const auto& [name, e] : entries_) out.push_back(name);
    return out;
  }
  std::size_t size() const { return entries_.size(); }

 private:
  std::map<std::string, entry, std::less<>> entries_;
};

}  // namespace opentabs::jsonrpc
