// The account endpoints of the web API (web/api.h routes here first):
//   GET  /api/account                             {signed_in, name}
//   POST /api/account/register {name, password}   a new (or unclaimed) name; signs in
//   POST /api/account/login    {name, password}   signs in
//   POST /api/account/logout                      ends the session
// A session is the HttpOnly, SameSite=Strict cookie `jz_session` (Secure with --secure-cookies).
// Without a player database each answers 404.
#pragma once
#include <string>

#include "web/api.h"

namespace jz {

class Accounts;

// True when `req` is one of the routes above (then *out is the answer).
bool handle_account_request(Accounts* accounts, const WebRequest& req, WebResponse* out);

// The value of cookie `name` in a Cookie header ("" when absent).
std::string cookie_value(const std::string& header, const std::string& name);
// The player signed in on this request ("" for a guest, or without accounts).
std::string signed_in_player(Accounts* accounts, const WebRequest& req);
// False for a request another site's page sent (its Origin names another host than Host).
bool same_origin(const WebRequest& req);

}  // namespace jz
