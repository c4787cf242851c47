// Web requests through the router of `janggi-zero serve` (web/api.h) and its game store, without
// sockets. An input is a session, one request per line: "METHOD TARGET [BODY]" with TARGET =
// path[?query]. "$ID" in a line stands for the id of the last game created, since ids are random and
// an input could not name one otherwise. Like a browser, the session sends back the last cookie the
// server set (accounts: register, login, logout); "COOKIE text" and "ORIGIN text" lines set the
// Cookie and Origin headers of the requests after them instead. Every answer must be a known status
// with a JSON body (the page's files aside), and no request may make the server fail (500) or throw.
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "web/api.h"
#include "web/player_db.h"

namespace {

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Query decoding as an HTTP server does it: %XX and '+' for space.
std::string decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out += char(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

jz::WebRequest parse_request(const std::string& line) {
  jz::WebRequest r;
  size_t sp1 = line.find(' ');
  r.method = line.substr(0, sp1);
  if (sp1 == std::string::npos) return r;
  size_t sp2 = line.find(' ', sp1 + 1);
  std::string target = line.substr(sp1 + 1, sp2 == std::string::npos ? std::string::npos : sp2 - sp1 - 1);
  if (sp2 != std::string::npos) r.body = line.substr(sp2 + 1);
  size_t q = target.find('?');
  r.path = target.substr(0, q);
  if (q == std::string::npos) return r;
  std::istringstream query(target.substr(q + 1));
  std::string item;
  while (std::getline(query, item, '&')) {
    size_t eq = item.find('=');
    r.params.emplace(decode(item.substr(0, eq)), eq == std::string::npos ? "" : decode(item.substr(eq + 1)));
  }
  return r;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;
  jz::ServerOptions o;
  o.max_games = 3;     // eviction is part of the store
  o.max_think_ms = 5;  // every engine move is a few milliseconds of alpha-beta:
  o.max_nodes = 300;   // the clock is read every 1024 nodes, so nodes bound it more tightly
  o.hash_mb = 1;
  o.analysis_nodes = 200;  // reviews: a few hundred nodes per position
  jz::GameStore store(o, nullptr);
  // Players, ranked games and export on a private in-memory database, new for every input.
  std::string err;
  std::shared_ptr<jz::PlayerDb> db = jz::PlayerDb::open(":memory:", &err);
  if (!db) __builtin_trap();
  jz::AccountOptions cheap;  // libsodium's smallest Argon2id: inputs register often
  cheap.hash_ops = 1;
  cheap.hash_mem_bytes = 8192;
  store.set_player_db(db, cheap);
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string line, last_id = "none", cookie, origin;
  for (int n = 0; n < 64 && std::getline(in, line); ++n) {
    if (line.rfind("COOKIE ", 0) == 0 || line.rfind("ORIGIN ", 0) == 0) {
      (line[0] == 'C' ? cookie : origin) = line.substr(7);
      continue;
    }
    replace_all(line, "$ID", last_id);
    jz::WebRequest req = parse_request(line);
    req.cookie = cookie, req.origin = origin, req.host = "127.0.0.1:8080", req.remote_addr = "127.0.0.1";
    jz::WebResponse res = jz::handle_web_request(store, req);
    for (auto& [k, v] : res.headers)
      if (k == "Set-Cookie") cookie = v.substr(0, v.find(';'));
    int s = res.status;
    bool known = s == 200 || s == 400 || s == 401 || s == 403 || s == 404 || s == 409 || s == 422 || s == 429;
    if (!known) __builtin_trap();
    if (res.content_type.rfind("application/json", 0) != 0) {
      // Only page files and exports are not JSON.
      if (s != 200 || (req.path.rfind("/api/", 0) == 0 && req.path != "/api/export")) __builtin_trap();
      continue;
    }
    nlohmann::json j = nlohmann::json::parse(res.body, nullptr, false);
    if (j.is_discarded() || !j.is_object()) __builtin_trap();
    if (s != 200 && !(j.contains("error") && j["error"].is_string())) __builtin_trap();
    if (s == 200 && req.path == "/api/new") last_id = j.at("id").get<std::string>();
  }
  return 0;
}
