// The MCP endpoint over loopback HTTP: lifecycle, sessions, JSON vs SSE answers, progress,
// cancellation, the standalone stream, batches, the gateway and bad input.  The tool
// pipeline behind it is the scripted fake of mcp_harness.hpp (see there why).
#include "mcp_harness.hpp"

using namespace mcp_test;

TEST_CASE("initialize negotiates the version and describes the server") {
  harness h;
  h.run([&]() -> awaitable<void> {
    auto r = co_await h.request(post("/mcp", initialize_body("2025-06-18")));
    CHECK(r.status == 200);
    CHECK(r.header("content-type") == "application/json");
    CHECK_FALSE(r.header("mcp-session-id").empty());
    auto res = r.json().at("result").as_object();
    CHECK(res.at("protocolVersion").as_string() == "2025-06-18");
    CHECK(res.at("serverInfo").at("name").as_string() == "opentabs");
    CHECK(res.at("capabilities").at("tools").at("listChanged").as_bool());
    CHECK(res.at("capabilities").as_object().contains("logging"));
    CHECK(res.at("instructions").as_string().size() > 200);

    auto future = co_await h.request(post("/mcp", initialize_body("2099-01-01")));
    CHECK(future.json().at("result").at("protocolVersion").as_string() == "2025-11-25");
    CHECK(h.mcp_endpoint->session_count() == 2);
  });
}

TEST_CASE("ping, tools/list in service order with verbatim schemas, cached per generation") {
  harness h;
  h.run([&]() -> awaitable<void> {
    auto sid = co_await h.open_session();
    auto ping = co_await h.request(post("/mcp", rpc(2, "ping"), session_headers(sid)));
    CHECK(ping.body == R"({"jsonrpc":"2.0","id":2,"result":{}})");

    auto list = co_await h.request(post("/mcp", rpc(3, "tools/list"), session_headers(sid)));
    CHECK(list.status == 200);
    auto tools = list.json().at("result").at("tools").as_array();
    REQUIRE(tools.size() == 5);
    CHECK(tools[0].at("name").as_string() == "notes_echo");
    CHECK(tools[1].at("description").as_string() == "[Requires approval] Slow tool that reports progress");
    CHECK(tools[2].at("description").as_string() == "[Disabled] Tool that logs");
    CHECK(tools[0].at("inputSchema").at("properties").at("tabId").at("minimum").as_int64() == 1);
    CHECK(tools[3].at("inputSchema").at("additionalProperties").as_bool() == false);
    CHECK(tools[4].at("description").as_string() == "plugin_inspect");  // empty description falls back to the name

    co_await h.request(post("/mcp", rpc(4, "tools/list"), session_headers(sid)));
    CHECK(h.service.list_calls == 1);  // served from the cache

    h.service.set_tools({{"only_tool", "The only one", json::object{{"type", "object"}}, "x"}});
    h.events.tools_changed();
    auto after = co_await h.request(post("/mcp", rpc(5, "tools/list"), session_headers(sid)));
    auto t2 = after.json().at("result").at("tools").as_array();
    REQUIRE(t2.size() == 1);
    CHECK(t2[0].at("name").as_string() == "only_tool");
    CHECK(h.service.list_calls == 2);
  });
}

TEST_CASE("tools/call is answered as SSE, with increasing progress before the result") {
  harness h;
  h.run([&]() -> awaitable<void> {
    auto sid = co_await h.open_session();
    auto echo = co_await h.request(post("/mcp", rpc(7, "tools/call", R"({"name":"notes_echo","arguments":{"text":"hi"}})"), session_headers(sid)));
    CHECK(echo.status == 200);
    CHECK(echo.header("content-type") == "text/event-stream");
    CHECK(echo.body.find("event: message\n") != std::string::npos);
    auto ev = echo.events();
    REQUIRE(ev.size() == 1);
    CHECK(ev[0].at("id").as_int64() == 7);
    CHECK(ev[0].at("result").at("content").as_array()[0].at("text").as_string() == R"({"text":"hi"})");
    CHECK_FALSE(ev[0].at("result").as_object().contains("isError"));
    CHECK(h.service.calls.back().origin == "mcp");
    CHECK_FALSE(h.service.calls.back().had_progress);  // no progressToken, no progress callback

    // A slow call with a progress token: progress 0/1 (approval), 1/3, 2/3; the repeated
    // 1/3 is dropped because progress must increase.  Then it is cancelled.
    client c(h.io);
    co_await c.connect(h.port);
    co_await c.send(post("/mcp", rpc(8, "tools/call", R"({"name":"notes_slow","_meta":{"progressToken":"tok"}})"), session_headers(sid)));
    auto head = co_await c.head();
    CHECK(head.status == 200);
    co_await c.body(head, R"("progress":2)");
    auto progress = head.events();
    REQUIRE(progress.size() == 3);
    CHECK(progress[0].at("method").as_string() == "notifications/progress");
    CHECK(progress[0].at("params").at("progressToken").as_string() == "tok");
    CHECK(progress[0].at("params").at("message").as_string() == "Waiting for user approval in the OpenTabs side panel");
    CHECK(progress[1].at("params").at("progress").as_int64() == 1);
    CHECK(progress[1].at("params").at("total").as_int64() == 3);
    CHECK(progress[2].at("params").at("progress").as_int64() == 2);
    CHECK_FALSE(progress[2].at("params").as_object().contains("message"));

    auto cancel = co_await h.request(post("/mcp", R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8,"reason":"user"}})", session_headers(sid)));
    CHECK(cancel.status == 202);
    CHECK(co_await c.body(head));  // the stream ends...
    CHECK(head.complete);
    for (auto& e : head.events()) CHECK_FALSE(e.contains("result"));  // ...without a response
    CHECK(h.service.slow_cancelled == 1);

    // The session is unaffected.
    auto ping = co_await h.request(post("/mcp", rpc(9, "ping"), session_headers(sid)));
    CHECK(ping.status == 200);
  });
}

TEST_CASE("an unknown tool is -32602; tool failures are isError results") {
  harness h;
  h.run([&]() -> awaitable<void> {
    auto sid = co_await h.open_session();
    auto r = co_await h.request(post("/mcp", rpc(3, "tools/call", R"({"name":"nope_tool"})"), session_headers(sid)));
    auto ev = r.events();
    REQUIRE(ev.size() == 1);
    CHECK(ev[0].at("error").at("code").as_int64() == -32602);
    CHECK(ev[0].at("error").at("message").as_string() == "Tool nope_tool not found");
  });
}

TEST_CASE("bad input gets clear errors and leaves the session and server working") {
  net::limits lim;
  lim.max_body_bytes = 4096;
  harness h({}, lim);
  h.run([&]() -> awaitable<void> {
    auto sid = co_await h.open_session();
    auto sh = session_headers(sid);

    auto parse = co_await h.request(post("/mcp", R"({"jsonrpc":"2.0",)", sh));
    CHECK(parse.status == 400);
    CHECK(parse.json().at("error").at("code").as_int64() == -32700);
    CHECK(parse.json().at("id").is_null());

    auto shape = co_await h.request(post("/mcp", R"({"jsonrpc":"2.0","id":5})", sh));
    CHECK(shape.status == 400);
    CHECK(shape.json().at("error").at("code").as_int64() == -32600);
    CHECK(shape.json().at("id").as_int64() == 5);

    auto not_object = co_await h.request(post("/mcp", "42", sh));
    CHECK(not_object.json().at("error").at("code").as_int64() == -32600);

    auto unknown = co_await h.request(post("/mcp", rpc(6, "no/such_method"), sh));
    CHECK(unknown.status == 200);
    CHECK(unknown.json().at("error").at("code").as_int64() == -32601);
    CHECK(unknown.json().at("error").at("message").as_string() == "Method not found: no/such_method");

    auto params = co_await h.request(post("/mcp", rpc(7, "tools/call", R"({"name":"notes_echo","arguments":"x"})"), sh));
    auto pe = params.events();
    REQUIRE(pe.size() == 1);
    CHECK(pe[0].at("error").at("code").as_int64() == -32602);
    CHECK(pe[0].at("error").at("message").as_string().find("params.arguments") != std::string::npos);

    auto level = co_await h.request(post("/mcp", rpc(8, "logging/setLevel", R"({"level":"loud"})"), sh));
    CHECK(level.json().at("error").at("message").as_string().find("params.level") != std::string::npos);

    auto cursor = co_await h.request(post("/mcp", rpc(9, "tools/list", R"({"cursor":"zzz"})"), sh));
    CHECK(cursor.json().at("error").at("code").as_int64() == -32602);

    auto reinit = co_await h.request(post("/mcp", initialize_body(), sh));
    CHECK(reinit.json().at("error").at("code").as_int64() == -32600);

    auto before_init = co_await h.request(post("/mcp", rpc(10, "tools/list")));
    CHECK(before_init.status == 400);
    CHECK(before_init.json().at("error").at("message").as_string().find("initialize") != std::string::npos);

    auto bad_init = co_await h.request(post("/mcp", rpc(11, "initialize", R"({"protocolVersion":"2025-11-25","capabilities":{}})")));
    CHECK(bad_init.status == 400);
    CHECK(bad_init.json().at("error").at("message").as_string().find("params.clientInfo") != std::string::npos);

    auto no_session = co_await h.request(post("/mcp", rpc(12, "ping"), session_headers("0000-not-a-session")));
    CHECK(no_session.status == 404);
    CHECK(no_session.json().at("error").at("code").as_int64() == -32001);

    auto version = co_await h.request(post("/mcp", rpc(13, "ping"), session_headers(sid, "1999-01-01")));
    CHECK(version.status == 400);
    CHECK(version.json().at("error").at("message").as_string().find("1999-01-01") != std::string::npos);

    auto older = co_await h.request(post("/mcp", rpc(14, "ping"), session_headers(sid, "2025-03-26")));
    CHECK(older.status == 200);  // any supported version is accepted in the header
    auto no_header = co_await h.request(post("/mcp", rpc(15, "ping"), session_headers(sid, "")));
    CHECK(no_header.status == 200);

    auto accept = co_await h.request(post("/mcp", rpc(16, "ping"), sh, "application/json"));
    CHECK(accept.status == 406);

    auto ctype = co_await h.request("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nAccept: application/json, text/event-stream\r\n" + sh +
                                    "Content-Length: 2\r\n\r\n{}");
    CHECK(ctype.status == 415);

    auto put = co_await h.request("PUT /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
    CHECK(put.status == 405);
    CHECK(put.header("allow") == "GET, POST, DELETE");

    auto big = co_await h.request(post("/mcp", rpc(17, "tools/call", R"({"name":"notes_echo","arguments":{"text":")" + std::string(8000, 'a') + "\"}}"), sh));
    CHECK(big.status == 413);

    auto batch = co_await h.request(post("/mcp", "[" + rpc(18, "ping") + "]", sh));
    CHECK(batch.status == 400);
    CHECK(batch.json().at("error").at("message").as_string().find("2025-03-26") != std::string::npos);

    auto ping = co_await h.request(post("/mcp", rpc(19, "ping"), sh));
    CHECK(ping.body == R"({"jsonrpc":"2.0","id":19,"result":{}})");
  });
}

TEST_CASE("a 2026-07-28 server/discover probe is answered without a session; one without _meta is -32602") {
  harness h;
  h.run([&]() -> awaitable<void> {
    const std::string meta = R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}})";
    auto r = co_await h.request(post("/mcp", rpc(1, "server/discover", meta), "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\n"));
    CHECK(r.status == 200);
    CHECK(r.json().at("result").at("resultType").as_string() == "complete");
    CHECK(r.json().at("result").at("supportedVersions").as_array().at(0).as_string() == "2026-07-28");
    auto bare = co_await h.request(post("/mcp", rpc(2, "server/discover"), "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\n"));
    CHECK(bare.status == 400);
    CHECK(bare.json().at("error").at("code").as_int64() == -32602);
    auto removed = co_await h.request(post("/mcp", rpc(3, "ping", meta), "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: ping\r\n"));
    CHECK(removed.status == 404);
    CHECK(removed.json().at("error").at("code").as_int64() == -32601);
    CHECK(h.mcp_endpoint->session_count() == 0);
  });
}

TEST_CASE("the standalone stream carries list_changed and filtered plugin logs; DELETE ends it") {
  harness h;
  h.run([&]() -> awaitable<void> {
    auto sid = co_await h.open_session();
    client get(h.io);
    co_await get.connect(h.port);
    co_await get.send("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n" + session_headers(sid) + "\r\n");
    auto stream = co_await get.head();
    CHECK(stream.status == 200);
    CHECK(stream.header("content-type") == "text/event-stream");

    h.events.tools_changed();
    co_await get.body(stream, "resources/list_changed");
    // The tool set changed, and with it the plugins and tabs the resources list.
    REQUIRE(stream.events().size() == 2);
    CHECK(stream.events()[0].at("method").as_string() == "notifications/tools/list_changed");
    CHECK(stream.events()[1].at("method").as_string() == "notifications/resources/list_changed");

    auto set = co_await h.request(post("/mcp", rpc(2, "logging/setLevel", R"({"level":"warning"})"), session_headers(sid)));
    CHECK(set.body == R"({"jsonrpc":"2.0","id":2,"result":{}})");
    h.events.plugin_log({"notes", "info", "quiet", nullptr, 0});
    h.events.plugin_log({"notes", "error", "loud", json::object{{"n", 1}}, 0});
    co_await get.body(stream, "loud");
    auto ev = stream.events();
    REQUIRE(ev.size() == 3);  // the info entry was filtered out
    CHECK(ev[2].at("method").as_string() == "notifications/message");
    CHECK(ev[2].at("params").at("level").as_string() == "error");
    CHECK(ev[2].at("params").at("logger").as_string() == "plugin:notes");
    CHECK(ev[2].at("params").at("data").as_string() == R"(loud {"n":1})");

    auto del = co_await h.request("DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n" + session_headers(sid) + "Content-Length: 0\r\n\r\n");
    CHECK(del.status == 200);
    CHECK(co_await get.body(stream));
    CHECK(stream.complete);
    auto after = co_await h.request(post("/mcp", rpc(3, "ping"), session_headers(sid)));
    CHECK(after.status == 404);
    auto del_again = co_await h.request("DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n" + session_headers(sid) + "Content-Length: 0\r\n\r\n");
    CHECK(del_again.status == 404);
    CHECK(h.mcp_endpoint->session_count() == 0);
  });
}

TEST_CASE("plugin logs of a running call ride on that call's stream") {
  harness h;
  h.run([&]() -> awaitable<void> {
    auto sid = co_await h.open_session();
    auto r = co_await h.request(post("/mcp", rpc(4, "tools/call", R"({"name":"notes_log"})"), session_headers(sid)));
    auto ev = r.events();
    REQUIRE(ev.size() == 3);
    CHECK(ev[0].at("params").at("data").as_string() == R"(working {"step":1})");
    CHECK(ev[1].at("params").at("level").as_string() == "error");
    CHECK(ev[2].at("id").as_int64() == 4);
  });
}

TEST_CASE("a second GET takes over the standalone stream") {
  harness h;
  h.run([&]() -> awaitable<void> {
    auto sid = co_await h.open_session();
    auto get = "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n" + session_headers(sid) + "\r\n";
    client first(h.io), second(h.io);
    co_await first.connect(h.port);
    co_await first.send(get);
    auto s1 = co_await first.head();
    CHECK(s1.status == 200);
    co_await second.connect(h.port);
    co_await second.send(get);
    auto s2 = co_await second.head();
    CHECK(s2.status == 200);
    CHECK(co_await first.body(s1));  // the older stream was ended
    CHECK(s1.complete);
    h.events.tools_changed();
    co_await second.body(s2, "resources/list_changed");
    CHECK(s2.events().size() == 2);  // tools/list_changed, resources/list_changed
  });
}

TEST_CASE("a list_changed with no open stream is delivered when the stream opens") {
  harness h;
  h.run([&]() -> awaitable<void> {
    auto sid = co_await h.open_session();
    h.events.tools_changed();
    client get(h.io);
    co_await get.connect(h.port);
    co_await get.send("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n" + session_headers(sid) + "\r\n");
    auto stream = co_await get.head();
    co_await get.body(stream, "list_changed");
    CHECK(stream.events().size() == 1);
  });
}

TEST_CASE("at most five new sessions a minute") {
  harness h;
  h.run([&]() -> awaitable<void> {
    for (int i = 0; i < 5; ++i) CHECK((co_await h.request(post("/mcp", initialize_body()))).status == 200);
    auto refused = co_await h.request(post("/mcp", initialize_body()));
    CHECK(refused.status == 429);
    CHECK(std::stoi(refused.header("retry-after")) >= 1);
    CHECK(refused.json().at("error").at("message").as_string().find("5 new MCP sessions per minute") != std::string::npos);
    // The gateway has its own bucket.
    CHECK((co_await h.request(post("/mcp/gateway", initialize_body()))).status == 200);
  });
}

TEST_CASE("idle sessions expire and then get 404") {
  mcp::endpoint_options o;
  o.session_idle_expiry = 100ms;
  harness h(o);
  h.run([&]() -> awaitable<void> {
    auto sid = co_await h.open_session();
    CHECK(h.mcp_endpoint->session_count() == 1);
    co_await h.until([&] { return h.mcp_endpoint->session_count() == 0; });
    auto r = co_await h.request(post("/mcp", rpc(2, "ping"), session_headers(sid)));
    CHECK(r.status == 404);
  });
}

TEST_CASE("2025-03-26 sessions accept batches") {
  harness h;
  h.run([&]() -> awaitable<void> {
    auto sid = co_await h.open_session("/mcp", "2025-03-26");
    auto sh = session_headers(sid, "");
    auto two = co_await h.request(post("/mcp", "[" + rpc(1, "ping") + "," + rpc(2, "tools/list") + "]", sh));
    CHECK(two.status == 200);
    auto arr = json::parse(two.body);
    REQUIRE(arr->is_array());
    REQUIRE(arr->as_array().size() == 2);
    CHECK(arr->as_array()[0].at("id").as_int64() == 1);
    CHECK(arr->as_array()[1].at("result").at("tools").as_array().size() == 5);

    auto notes = co_await h.request(post("/mcp", R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])", sh));
    CHECK(notes.status == 202);

    auto with_call = co_await h.request(post("/mcp", "[" + rpc(3, "tools/call", R"({"name":"notes_echo"})") + R"(,{"jsonrpc":"2.0"}])", sh));
    CHECK(with_call.header("content-type") == "text/event-stream");
    auto ev = with_call.events();
    REQUIRE(ev.size() == 2);
    CHECK(ev[0].at("id").as_int64() == 3);
    CHECK(ev[1].at("error").at("code").as_int64() == -32600);  // the malformed element

    auto empty = co_await h.request(post("/mcp", "[]", sh));
    CHECK(empty.status == 400);
  });
}

TEST_CASE("sessions are independent: a parked call in one does not hold up another") {
  harness h;
  h.run([&]() -> awaitable<void> {
    auto a = co_await h.open_session();
    auto b = co_await h.open_session();
    client slow(h.io);
    co_await slow.connect(h.port);
    co_await slow.send(post("/mcp", rpc(1, "tools/call", R"({"name":"notes_slow"})"), session_headers(a)));
    auto head = co_await slow.head();
    co_await h.until([&] { return h.service.slow_started == 1; });
    auto ping = co_await h.request(post("/mcp", rpc(2, "ping"), session_headers(b)));
    CHECK(ping.status == 200);
    // Cancelling id 1 in session b does not touch session a's call.
    co_await h.request(post("/mcp", R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})", session_headers(b)));
    CHECK(h.service.slow_cancelled == 0);
    // Deleting session a cancels its call.
    co_await h.request("DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n" + session_headers(a) + "Content-Length: 0\r\n\r\n");
    co_await slow.body(head);
    CHECK(head.complete);
    CHECK(h.service.slow_cancelled == 1);
    CHECK((co_await h.request(post("/mcp", rpc(3, "ping"), session_headers(b)))).status == 200);
  });
}

TEST_CASE("a long tools/call stream opens after the head delay and is kept alive until the call ends") {
  mcp::endpoint_options o;
  o.sse_head_delay = 20ms;
  o.sse_keepalive_interval = 40ms;
  harness h(o);
  h.run([&]() -> awaitable<void> {
    auto sid = co_await h.open_session();
    client slow(h.io);
    co_await slow.connect(h.port);
    co_await slow.send(post("/mcp", rpc(1, "tools/call", R"({"name":"notes_slow"})"), session_headers(sid)));
    auto head = co_await slow.head();  // no event yet: the head came on its own
    CHECK(head.status == 200);
    CHECK(head.header("content-type") == "text/event-stream");
    CHECK(h.service.slow_started == 1);
    CHECK(co_await slow.body(head, ": keepalive"));
    co_await h.request(post("/mcp", R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})", session_headers(sid)));
    co_await slow.body(head);
    CHECK(head.complete);  // the stream ended with the call
    CHECK(h.service.slow_cancelled == 1);
    CHECK(head.events().empty());  // a cancelled call gets no response
  });
}

TEST_CASE("gateway: two meta-tools over the same pipeline") {
  harness h;
  h.run([&]() -> awaitable<void> {
    auto init = co_await h.request(post("/mcp/gateway", initialize_body()));
    auto res = init.json().at("result").as_object();
    CHECK(res.at("serverInfo").at("name").as_string() == "opentabs-gateway");
    CHECK_FALSE(res.at("capabilities").as_object().contains("logging"));
    auto sid = init.header("mcp-session-id");
    auto sh = session_headers(sid);

    auto list = co_await h.request(post("/mcp/gateway", rpc(2, "tools/list"), sh));
    auto tools = list.json().at("result").at("tools").as_array();
    REQUIRE(tools.size() == 2);

    auto all = co_await h.request(post("/mcp/gateway", rpc(3, "tools/call", R"({"name":"opentabs_list_tools"})"), sh));
    auto text = all.events()[0].at("result").at("content").as_array()[0].at("text").as_string();
    auto listing = json::parse(text);
    REQUIRE(listing->is_array());
    CHECK(listing->as_array().size() == 5);
    CHECK(listing->as_array()[3].at("plugin").as_string() == "browser");
    CHECK(listing->as_array()[0].at("inputSchema").at("properties").as_object().contains("tabId"));

    auto browser = co_await h.request(post("/mcp/gateway", rpc(4, "tools/call", R"({"name":"opentabs_list_tools","arguments":{"plugin":"browser"}})"), sh));
    auto btext = browser.events()[0].at("result").at("content").as_array()[0].at("text").as_string();
    CHECK(json::parse(btext)->as_array().size() == 1);

    auto missing = co_await h.request(post("/mcp/gateway", rpc(5, "tools/call", R"({"name":"opentabs_list_tools","arguments":{"plugin":"zzz"}})"), sh));
    CHECK(missing.events()[0].at("result").at("isError").as_bool());

    auto call = co_await h.request(post("/mcp/gateway", rpc(6, "tools/call", R"({"name":"opentabs_call","arguments":{"tool":"notes_echo","arguments":{"text":"gw"}}})"), sh));
    CHECK(call.events()[0].at("result").at("content").as_array()[0].at("text").as_string() == R"({"text":"gw"})");
    CHECK(h.service.calls.back().origin == "gateway");
    CHECK(h.service.calls.back().name == "notes_echo");

    auto bad = co_await h.request(post("/mcp/gateway", rpc(7, "tools/call", R"({"name":"opentabs_call","arguments":{}})"), sh));
    auto bad_result = bad.events()[0].at("result");
    CHECK(bad_result.at("isError").as_bool());
    CHECK(bad_result.at("content").as_array()[0].at("text").as_string().find("tool: is required") != std::string::npos);

    auto inner_unknown = co_await h.request(post("/mcp/gateway", rpc(8, "tools/call", R"({"name":"opentabs_call","arguments":{"tool":"nope"}})"), sh));
    CHECK(inner_unknown.events()[0].at("result").at("isError").as_bool());

    auto direct = co_await h.request(post("/mcp/gateway", rpc(9, "tools/call", R"({"name":"notes_echo"})"), sh));
    CHECK(direct.events()[0].at("error").at("message").as_string().find("Unknown gateway tool: notes_echo") == 0);

    client slow(h.io);
    co_await slow.connect(h.port);
    co_await slow.send(post("/mcp/gateway", rpc(10, "tools/call", R"({"name":"opentabs_call","arguments":{"tool":"notes_slow"},"_meta":{"progressToken":1}})"), sh));
    auto head = co_await slow.head();
    co_await slow.body(head, R"("progress":2)");
    CHECK(head.events().size() == 3);
    CHECK(head.events()[0].at("params").at("progressToken").as_int64() == 1);
    co_await h.request(post("/mcp/gateway", R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":10}})", sh));
    co_await slow.body(head);
    CHECK(head.complete);
    CHECK(h.service.slow_cancelled == 1);
  });
}

TEST_CASE("a standalone stream whose client vanished is noticed by its keep-alive writes") {
  mcp::endpoint_options o;
  o.sse_keepalive_interval = 20ms;
  o.session_idle_expiry = 50ms;
  harness h(o);
  h.run([&]() -> awaitable<void> {
    auto sid = co_await h.open_session();
    {
      client get(h.io);
      co_await get.connect(h.port);
      co_await get.send("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n" + session_headers(sid) + "\r\n");
      auto stream = co_await get.head();
      CHECK(stream.status == 200);
      co_await get.body(stream, ": keepalive");  // keep-alive comments arrive while idle
      CHECK(stream.body.find(": keepalive\n\n") != std::string::npos);
    }  // the client socket closes here
    // The open stream kept the session busy; once the dead stream is noticed, the idle
    // session expires.
    co_await h.until([&] { return h.mcp_endpoint->session_count() == 0; });
    CHECK(h.server->connection_count() <= 1);
  });
}

TEST_CASE("shutdown ends every session, open stream and parked call; later requests get 503") {
  harness h;
  h.run([&]() -> awaitable<void> {
    auto a = co_await h.open_session();
    auto b = co_await h.open_session();
    client get(h.io), slow(h.io);
    co_await get.connect(h.port);
    co_await get.send("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n" + session_headers(a) + "\r\n");
    auto stream = co_await get.head();
    co_await slow.connect(h.port);
    co_await slow.send(post("/mcp", rpc(1, "tools/call", R"({"name":"notes_slow"})"), session_headers(b)));
    auto call = co_await slow.head();
    co_await h.until([&] { return h.service.slow_started == 1; });

    h.mcp_endpoint->shutdown();
    CHECK(h.mcp_endpoint->session_count() == 0);
    CHECK(co_await get.body(stream));
    CHECK(stream.complete);
    CHECK(co_await slow.body(call));
    CHECK(call.complete);
    CHECK(call.events().empty());  // a cancelled call sends no response
    CHECK(h.service.slow_cancelled == 1);
    auto late = co_await h.request(post("/mcp", initialize_body()));
    CHECK(late.status == 503);
  });
}
