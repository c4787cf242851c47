#include "web/accounts_api.h"

#include <nlohmann/json.hpp>

#include "web/accounts.h"

namespace jz {

namespace {

using json = nlohmann::json;
const char* SESSION_COOKIE = "jz_session";

std::string session_cookie_header(const std::string& token, int max_age_s, bool secure) {
  return std::string(SESSION_COOKIE) + "=" + token + "; Path=/; Max-Age=" + std::to_string(max_age_s) +
         "; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
}

// {name, password} from a JSON body; false + *out on a malformed one.
bool read_credentials(const std::string& body, std::string* name, std::string* password, WebResponse* out) {
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("name") || !j["name"].is_string() ||
      !j.contains("password") || !j["password"].is_string()) {
    *out = json_response(400, {{"error", "send {\"name\": ..., \"password\": ...}"}});
    return false;
  }
  *name = j["name"].get<std::string>();
  *password = j["password"].get<std::string>();
  return true;
}

WebResponse signed_in_reply(const AccountReply& r, bool secure, int session_days) {
  if (r.status != 200) {
    WebResponse w = json_response(r.status, {{"error", r.error}});
    if (r.retry_after_s) w.headers.emplace_back("Retry-After", std::to_string(r.retry_after_s));
    return w;
  }
  WebResponse w = json_response(200, {{"signed_in", true}, {"name", r.name}});
  w.headers.emplace_back("Set-Cookie", session_cookie_header(r.token, session_days * 86400, secure));
  return w;
}

}  // namespace

std::string cookie_value(const std::string& header, const std::string& name) {
  size_t i = 0;
  while (i < header.size()) {
    size_t end = header.find(';', i);
    if (end == std::string::npos) end = header.size();
    size_t b = header.find_first_not_of(' ', i);
    size_t eq = header.find('=', b);
    if (b < end && eq < end && header.compare(b, eq - b, name) == 0 && eq - b == name.size())
      return header.substr(eq + 1, end - eq - 1);
    i = end + 1;
  }
  return "";
}

std::string signed_in_player(Accounts* accounts, const WebRequest& req) {
  return accounts ? accounts->player_of(cookie_value(req.cookie, SESSION_COOKIE)) : "";
}

bool same_origin(const WebRequest& req) {
  if (req.origin.empty()) return true;  // same-origin GETs and non-browser clients send none
  size_t scheme = req.origin.find("://");
  std::string host = scheme == std::string::npos ? "" : req.origin.substr(scheme + 3);
  return !host.empty() && host == req.host;
}

bool handle_account_request(Accounts* accounts, const WebRequest& req, WebResponse* out) {
  const std::string& p = req.path;
  if (p != "/api/account" && p.rfind("/api/account/", 0) != 0) return false;
  if (!accounts) {
    *out = json_response(404, {{"error", "this server keeps no players (start it with --data-dir)"}});
    return true;
  }
  const bool secure = accounts->options().secure_cookie;
  std::string name, password;
  if ((req.method == "GET" || req.method == "HEAD") && p == "/api/account") {
    std::string who = signed_in_player(accounts, req);
    *out = json_response(200, who.empty() ? json{{"signed_in", false}} : json{{"signed_in", true}, {"name", who}});
  } else if (req.method != "POST") {
    return false;  // the router's 404
  } else if (p == "/api/account/register" || p == "/api/account/login") {
    if (!read_credentials(req.body, &name, &password, out)) return true;
    AccountReply r = p == "/api/account/register" ? accounts->register_player(name, password, req.remote_addr)
                                                  : accounts->sign_in(name, password, req.remote_addr);
    *out = signed_in_reply(r, secure, accounts->options().session_days);
  } else if (p == "/api/account/logout") {
    accounts->sign_out(cookie_value(req.cookie, SESSION_COOKIE));
    *out = json_response(200, {{"signed_in", false}});
    out->headers.emplace_back("Set-Cookie", session_cookie_header("", 0, secure));
  } else {
    return false;
  }
  return true;
}

}  // namespace jz
