#include "web/api.h"

#include <cctype>

#include <nlohmann/json.hpp>

#include "web/accounts_api.h"
#include "web/players_api.h"
#include "web/review_api.h"
#include "web/server.h"

namespace jz {

namespace {

const char* JSON_TYPE = "application/json; charset=utf-8";

WebResponse json_reply(const ApiReply& r) { return {r.status, JSON_TYPE, r.body, {}}; }

WebResponse not_found(const WebRequest& req) {
  return json_error(404, "no such endpoint: " + req.method + " " + req.path);  // the path may be any bytes
}

bool same_name(const std::string& a, const std::string& b) {  // names are unique regardless of ASCII case
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// A new game is played for the signed-in player (`account`), never for a name a guest types: the
// body's "player" is replaced by the account, and a ranked game needs one. False + *fail.
bool bind_player(const std::string& body, const std::string& account, std::string* out, WebResponse* fail) {
  nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_object()) return *out = body, true;  // the store answers malformed bodies
  if (j.contains("player") && j["player"].is_string()) {
    std::string named = j["player"].get<std::string>();
    if (!named.empty() && !same_name(named, account))
      return *fail = json_error(401, "sign in as '" + named + "' to play under that name"), false;
  }
  if (account.empty() && j.contains("ranked") && j["ranked"] == true)
    return *fail = json_error(401, "sign in to play ranked games (guests play unranked)"), false;
  if (!account.empty()) j["player"] = account;
  *out = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return true;
}

// Only a game's player may move, resign or undo in it; a guest's game is anyone's who has its id.
bool may_play(GameStore& g, const std::string& body, const std::string& account, WebResponse* fail) {
  nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("id") || !j["id"].is_string()) return true;  // the store answers
  std::string owner = g.owner(j["id"].get<std::string>());
  if (owner.empty() || owner == account) return true;
  *fail = json_error(403, "this game is " + owner + "'s: sign in as " + owner + " to play it");
  return false;
}

}  // namespace

WebResponse json_response(int status, const nlohmann::json& j) {
  return {status, JSON_TYPE, j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), {}};
}

WebResponse json_error(int status, const std::string& msg) { return json_response(status, {{"error", msg}}); }

std::string param(const WebRequest& req, const std::string& key) {
  auto it = req.params.find(key);
  return it == req.params.end() ? std::string() : it->second;
}

WebResponse handle_web_request(GameStore& g, const WebRequest& req) {
  // cpp-httplib serves HEAD with the GET handlers (and drops the body); so does this.
  bool get = req.method == "GET" || req.method == "HEAD";
  const std::string& p = req.path;
  // Another site's page may not act with this site's cookie (SameSite=Strict already withholds it).
  if (req.method == "POST" && !same_origin(req)) return json_error(403, "cross-site request refused");
  WebResponse routed;
  if (handle_account_request(g.accounts(), req, &routed)) return routed;
  if (handle_player_request(g.player_db(), req, &routed)) return routed;
  if (handle_review_request(g, req, &routed)) return routed;
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
    std::string account = signed_in_player(g.accounts(), req), body;
    if (p == "/api/new")
      return bind_player(req.body, account, &body, &routed) ? json_reply(g.new_game(body)) : routed;
    bool acts = p == "/api/move" || p == "/api/engine" || p == "/api/hint" || p == "/api/undo" || p == "/api/resign";
    if (acts && !may_play(g, req.body, account, &routed)) return routed;
    if (p == "/api/move") return json_reply(g.move(req.body));
    if (p == "/api/engine") return json_reply(g.engine_move(req.body));
    if (p == "/api/hint") return json_reply(g.hint(req.body));
    if (p == "/api/undo") return json_reply(g.undo(req.body));
    if (p == "/api/resign") return json_reply(g.resign(req.body));
  }
  return not_found(req);
}

}  // namespace jz
