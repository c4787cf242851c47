#include "web/api.h"

#include <nlohmann/json.hpp>

#include "web/players_api.h"
#include "web/server.h"

namespace jz {

namespace {

const char* JSON_TYPE = "application/json; charset=utf-8";

WebResponse json_reply(const ApiReply& r) { return {r.status, JSON_TYPE, r.body, {}}; }

// Like cpp-httplib's Request::get_param_value: the first value of the key, or "".
std::string param(const WebRequest& req, const std::string& key) {
  auto it = req.params.find(key);
  return it == req.params.end() ? std::string() : it->second;
}

WebResponse not_found(const WebRequest& req) {
  // The path may be any bytes: invalid UTF-8 goes out as U+FFFD instead of making dump() throw.
  nlohmann::json j{{"error", "no such endpoint: " + req.method + " " + req.path}};
  return {404, "application/json", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), {}};
}

}  // namespace

WebResponse handle_web_request(GameStore& g, const WebRequest& req) {
  // cpp-httplib serves HEAD with the GET handlers (and drops the body); so does this.
  bool get = req.method == "GET" || req.method == "HEAD";
  const std::string& p = req.path;
  WebResponse players;
  if (handle_player_request(g.player_db(), req, &players)) return players;
  if (get) {
    if (p == "/api/info") return json_reply(g.info());
    if (p == "/api/state") return json_reply(g.state(param(req, "id")));
    if (p == "/api/legal") return json_reply(g.legal(param(req, "id"), param(req, "from")));
    if (p == "/api/record") {
      std::string name;
      WebResponse r = json_reply(g.record(param(req, "id"), &name));
      if (r.status == 200) r.headers.emplace_back("Content-Disposition", "attachment; filename=\"" + name + "\"");
      return r;
    }
    const WebAsset* a = find_web_asset(p);
    if (!a) return {404, "application/json", R"({"error":"not found"})", {}};
    return {200, a->mime, std::string(reinterpret_cast<const char*>(a->data), a->size), {}};
  }
  if (req.method == "POST") {
    if (p == "/api/new") return json_reply(g.new_game(req.body));
    if (p == "/api/move") return json_reply(g.move(req.body));
    if (p == "/api/engine") return json_reply(g.engine_move(req.body));
    if (p == "/api/hint") return json_reply(g.hint(req.body));
    if (p == "/api/undo") return json_reply(g.undo(req.body));
    if (p == "/api/resign") return json_reply(g.resign(req.body));
  }
  return not_found(req);
}

}  // namespace jz
