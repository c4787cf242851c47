#include "web/server.h"

#include <chrono>
#include <thread>

#include <httplib.h>

#include <nlohmann/json.hpp>

#include "web/api.h"

namespace jz {

struct WebServer::Impl {
  Impl(const ServerOptions& o, std::shared_ptr<Evaluator> net) : opts(o), store(o, std::move(net)) {}
  ServerOptions opts;
  GameStore store;
  httplib::Server http;
  int port = -1;
};

namespace {

// {"error": msg}; msg may quote the request (any bytes), so invalid UTF-8 becomes U+FFFD instead of
// an exception inside httplib's error handler.
std::string json_error(const std::string& msg) {
  return nlohmann::json{{"error", msg}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Every GET/HEAD/POST goes through the socket-free router (web/api.h).
void serve(GameStore& g, const httplib::Request& req, httplib::Response& res) {
  WebRequest r{req.method, req.path, {req.params.begin(), req.params.end()}, req.body,
               req.get_header_value("Cookie"), req.get_header_value("Origin"), req.get_header_value("Host"),
               req.remote_addr};
  WebResponse out = handle_web_request(g, r);
  res.status = out.status;
  res.set_content(out.body, out.content_type.c_str());
  for (auto& h : out.headers) res.set_header(h.first.c_str(), h.second);
}

}  // namespace

WebServer::WebServer(const ServerOptions& opts, std::shared_ptr<Evaluator> net)
    : impl_(std::make_unique<Impl>(opts, std::move(net))) {
  httplib::Server& s = impl_->http;
  GameStore& g = impl_->store;
  s.set_payload_max_length(1 << 16);
  // Enough handler threads that a request never queues unseen before its handler starts: engine
  // searches are admitted by the store (web/engine_slots.h), which counts a level's limit from there.
  s.new_task_queue = [] { return new httplib::ThreadPool(64); };
  s.set_read_timeout(10, 0);
  s.set_write_timeout(10, 0);
  s.set_default_headers({{"Cache-Control", "no-store"}, {"X-Content-Type-Options", "nosniff"}});
  s.Get(R"(/.*)", [&g](const httplib::Request& req, httplib::Response& res) { serve(g, req, res); });
  s.Post(R"(/.*)", [&g](const httplib::Request& req, httplib::Response& res) { serve(g, req, res); });
  // Unknown API routes and methods get a JSON error, not an HTML page.
  s.set_error_handler(httplib::Server::Handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string msg = res.status == 404 ? "no such endpoint: " + req.method + " " + req.path : "HTTP error";
    res.set_content(json_error(msg), "application/json");
  }));
  s.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "internal error";
    try {
      if (ep) std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = std::string("internal error: ") + e.what();
    } catch (...) {}
    res.status = 500;
    res.set_content(json_error(what), "application/json");
  });
}

WebServer::~WebServer() { stop(); }

GameStore& WebServer::store() { return impl_->store; }

int WebServer::bind(std::string* error) {
  const ServerOptions& o = impl_->opts;
  int port =
      o.port == 0 ? impl_->http.bind_to_any_port(o.host) : (impl_->http.bind_to_port(o.host, o.port) ? o.port : -1);
  if (port < 0) {
    if (error) *error = "cannot listen on " + o.host + ":" + std::to_string(o.port);
    return -1;
  }
  impl_->port = port;
  return port;
}

void WebServer::run() { impl_->http.listen_after_bind(); }

void WebServer::stop() { impl_->http.stop(); }

void WebServer::run_until(const std::atomic<int>& stop_flag) {
  std::atomic<bool> done{false};
  std::thread watcher([&] {
    while (!done && !stop_flag) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!done) stop();
  });
  run();
  done = true;
  watcher.join();
}

}  // namespace jz
