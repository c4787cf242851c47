// The web server's routing without sockets: one request (method, path, query parameters, body) in,
// one response out. web/server.cpp hands every cpp-httplib request here, and the fuzz target
// (fuzz/fuzz_web.cpp) calls it directly, so both exercise the same decisions.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "web/games.h"

namespace jz {

struct WebRequest {
  std::string method;                              // "GET", "HEAD", "POST", ...
  std::string path;                                // without the query string
  std::multimap<std::string, std::string> params;  // decoded query parameters (first value wins)
  std::string body;
  std::string cookie;       // the Cookie header
  std::string origin;       // the Origin header ("" when absent)
  std::string host;         // the Host header
  std::string remote_addr;  // the peer's address (failed sign-ins are limited per address)
};

struct WebResponse {
  int status = 200;
  std::string content_type;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers
};

// JSON answers for every route: invalid UTF-8 from a request (ids, names, paths) goes out as U+FFFD
// instead of making the dump throw.
WebResponse json_response(int status, const nlohmann::json& j);
WebResponse json_error(int status, const std::string& msg);  // {"error": msg}
// The first value of a query parameter, or "" (as cpp-httplib's Request::get_param_value).
std::string param(const WebRequest& req, const std::string& key);

// Routes the API (/api/...) to the store and everything else to the embedded page; unknown routes
// get 404 with a JSON error. Exceptions from the store propagate (the server answers 500).
WebResponse handle_web_request(GameStore& store, const WebRequest& req);

}  // namespace jz
