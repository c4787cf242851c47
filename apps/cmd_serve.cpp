// `janggi-zero serve`: the web page to play in the browser (web/). Loopback only unless --host says otherwise.
#include <filesystem>
#include <iostream>

#include "apps/app_support.h"
#include "apps/commands.h"
#ifdef JZ_HAVE_WEB
#include "web/player_db.h"
#include "web/serve_engine.h"
#include "web/server.h"
#endif

namespace jz::app {

void add_serve(CLI::App& app, int& rc) {
  struct Args {
    std::string host = "127.0.0.1";
    int port = 8080;
    std::string model, xiangqi_model;
    bool no_model = false;
    int max_games = 256;
    int sims = 800;
    std::string data_dir;
    bool secure_cookies = false;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("serve", "Web page to play in the browser (http://HOST:PORT/)");
  cmd->add_option("--host", a->host, "Address to bind (loopback by default)")->capture_default_str();
  cmd->add_option("--port", a->port, "Port (0 = any free port)")->capture_default_str()->check(CLI::Range(0, 65535));
  cmd->add_option("--model", a->model, "Network file (default: models/latest.jzn next to the binary or repo)");
  cmd->add_option("--xiangqi-model", a->xiangqi_model,
                  "Xiangqi network file (default: models/xiangqi-latest.jzn when it exists)");
  cmd->add_flag("--no-model", a->no_model, "Alpha-beta levels only (both games)");
  cmd->add_option("--max-games", a->max_games, "Games kept at once (the least recently used are dropped)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--sims", a->sims, "Network: simulations per engine move")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--data-dir", a->data_dir,
                  "Keep players, points and finished games in DIR/janggi-zero.sqlite (created on first start)");
  cmd->add_flag("--secure-cookies", a->secure_cookies,
                 "Send the sign-in cookie over HTTPS only (behind a TLS proxy; the page then needs https://)");
  set_command(cmd, rc, [a] {
#ifdef JZ_HAVE_WEB
    ServeEngines engines;
    std::string err;
    if (!choose_serve_engines(a->model, a->no_model, engines, &err, a->xiangqi_model)) return report_error(err);
    const GameEngines* both[] = {&engines, &engines.xiangqi};
    for (const GameEngines* e : both)
      if (!e->warning.empty()) report_error(e->warning);
    ServerOptions o;
    o.host = a->host;
    o.port = a->port;
    o.max_games = a->max_games;
    o.simulations = a->sims;
    o.default_level = engines.default_level;
    o.default_reason = engines.default_reason;
    o.network_strength = engines.network_strength;
    o.xiangqi_default_level = engines.xiangqi.default_level;
    o.xiangqi_default_reason = engines.xiangqi.default_reason;
    o.xiangqi_network_strength = engines.xiangqi.network_strength;
    std::shared_ptr<PlayerDb> db;
    if (!a->data_dir.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(a->data_dir, ec);
      if (ec) return report_error("cannot create --data-dir " + a->data_dir + ": " + ec.message());
      db = PlayerDb::open(PlayerDb::file_in(a->data_dir), &err);
      if (!db) return report_error(err);
    }
    const std::shared_ptr<Evaluator>& net = engines.net;
    WebServer server(o, net);
    server.store().add_network(engines.xiangqi.net);
    AccountOptions accounts;
    accounts.secure_cookie = a->secure_cookies;
    server.store().set_player_db(db, accounts);
    int port = server.bind(&err);
    if (port < 0) return report_error(err);
    std::cout << "janggi-zero serving on http://" << o.host << ":" << port << "/ ("
              << (net ? "network " + net->id() + " and alpha-beta" : std::string("alpha-beta only")) << ")\n"
              << "default engine: "
              << (o.default_level == "net" ? "network " + net->id() : "alpha-beta " + o.default_level) << " ("
              << o.default_reason << ")\n"
              << "xiangqi: "
              << (engines.xiangqi.net ? "network " + engines.xiangqi.net->id() : std::string("alpha-beta only (no network)"))
              << ", default " << o.xiangqi_default_level << " (" << o.xiangqi_default_reason << ")\n"
              << (db ? "players and games: " + PlayerDb::file_in(a->data_dir)
                     : std::string("no --data-dir: players and points are off"))
              << std::endl;
    server.run_until(install_stop_signals());
    return 0;
#else
    return report_error("this build has no web server (configured with JZ_WITH_WEB=OFF or without cpp-httplib)");
#endif
  });
}

}  // namespace jz::app
