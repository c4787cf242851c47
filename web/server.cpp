#include "web/server.h"

#include <httplib.h>

#include <nlohmann/json.hpp>

namespace jz {

struct WebServer::Impl {
  Impl(const ServerOptions& o, std::shared_ptr<Evaluator> net) : opts(o), store(o, std::move(net)) {}
  ServerOptions opts;
  GameStore store;
  httplib::Server http;
  int port = -1;
};

namespace {

void send(httplib::Response& res, const ApiReply& r) {
  res.status = r.status;
  res.set_content(r.body, "application/json; charset=utf-8");
}

}  // namespace

WebServer::WebServer(const ServerOptions& opts, std::shared_ptr<Evaluator> net)
    : impl_(std::make_unique<Impl>(opts, std::move(net))) {
  httplib::Server& s = impl_->http;
  GameStore& g = impl_->store;
  s.set_payload_max_length(1 << 16);
  s.set_read_timeout(10, 0);
  s.set_write_timeout(10, 0);
  s.set_default_headers({{"Cache-Control", "no-store"}, {"X-Content-Type-Options", "nosniff"}});

  s.Get("/api/info", [&g](const httplib::Request&, httplib::Response& res) { send(res, g.info()); });
  s.Get("/api/state", [&g](const httplib::Request& req, httplib::Response& res) {
    send(res, g.state(req.get_param_value("id")));
  });
  s.Get("/api/legal", [&g](const httplib::Request& req, httplib::Response& res) {
    send(res, g.legal(req.get_param_value("id"), req.get_param_value("from")));
  });
  s.Get("/api/record", [&g](const httplib::Request& req, httplib::Response& res) {
    std::string name;
    ApiReply r = g.record(req.get_param_value("id"), &name);
    send(res, r);
    if (r.status == 200) res.set_header("Content-Disposition", "attachment; filename=\"" + name + "\"");
  });
  s.Post("/api/new", [&g](const httplib::Request& req, httplib::Response& res) { send(res, g.new_game(req.body)); });
  s.Post("/api/move", [&g](const httplib::Request& req, httplib::Response& res) { send(res, g.move(req.body)); });
  s.Post("/api/engine", [&g](const httplib::Request& req, httplib::Response& res) {
    send(res, g.engine_move(req.body));
  });
  s.Post("/api/undo", [&g](const httplib::Request& req, httplib::Response& res) { send(res, g.undo(req.body)); });
  s.Post("/api/resign", [&g](const httplib::Request& req, httplib::Response& res) { send(res, g.resign(req.body)); });

  s.Get(R"(/.*)", [](const httplib::Request& req, httplib::Response& res) {
    const WebAsset* a = find_web_asset(req.path);
    if (!a) {
      res.status = 404;
      res.set_content(R"({"error":"not found"})", "application/json");
      return;
    }
    res.set_content(reinterpret_cast<const char*>(a->data), a->size, a->mime);
  });
  // Unknown API routes and methods get a JSON error, not an HTML page.
  s.set_error_handler(httplib::Server::Handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string msg = res.status == 404 ? "no such endpoint: " + req.method + " " + req.path : "HTTP error";
    res.set_content(nlohmann::json{{"error", msg}}.dump(), "application/json");
  }));
  s.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "internal error";
    try {
      if (ep) std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = std::string("internal error: ") + e.what();
    } catch (...) {
    }
    res.status = 500;
    res.set_content(nlohmann::json{{"error", what}}.dump(), "application/json");
  });
}

WebServer::~WebServer() { stop(); }

GameStore& WebServer::store() { return impl_->store; }

int WebServer::bind(std::string* error) {
  const ServerOptions& o = impl_->opts;
  int port = o.port == 0 ? impl_->http.bind_to_any_port(o.host) : (impl_->http.bind_to_port(o.host, o.port) ? o.port : -1);
  if (port < 0) {
    if (error) *error = "cannot listen on " + o.host + ":" + std::to_string(o.port);
    return -1;
  }
  impl_->port = port;
  return port;
}

void WebServer::run() { impl_->http.listen_after_bind(); }

void WebServer::stop() { impl_->http.stop(); }

}  // namespace jz
