// `janggi-zero serve`: the web page to play in the browser (web/). Loopback only unless --host says otherwise.
#include <csignal>
#include <filesystem>
#include <iostream>

#include "apps/app_support.h"
#include "apps/commands.h"
#include "play/default_engine.h"
#include "play/engine.h"
#include "play/model_path.h"
#ifdef JZ_HAVE_WEB
#include "util/fileio.h"
#include "web/levels.h"
#include "web/player_db.h"
#include "web/server.h"
#endif

namespace jz::app {

#ifdef JZ_HAVE_WEB
namespace {
WebServer* g_server = nullptr;
void on_signal(int) {
  if (g_server) g_server->stop();
}
}  // namespace
#endif

void add_serve(CLI::App& app, int& rc) {
  struct Args {
    std::string host = "127.0.0.1";
    int port = 8080;
    std::string model;
    bool no_model = false;
    int max_games = 256;
    int sims = 800;
    std::string data_dir;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("serve", "Web page to play in the browser (http://HOST:PORT/)");
  cmd->add_option("--host", a->host, "Address to bind (loopback by default)")->capture_default_str();
  cmd->add_option("--port", a->port, "Port (0 = any free port)")->capture_default_str()->check(CLI::Range(0, 65535));
  cmd->add_option("--model", a->model, "Network file (default: models/latest.jzn next to the binary or repo)");
  cmd->add_flag("--no-model", a->no_model, "Alpha-beta levels only");
  cmd->add_option("--max-games", a->max_games, "Games kept at once (the least recently used are dropped)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--sims", a->sims, "Network: simulations per engine move")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--data-dir", a->data_dir,
                  "Keep players, points and finished games in DIR/janggi-zero.sqlite (created on first start)");
  cmd->callback([a, &rc] {
#ifdef JZ_HAVE_WEB
    ServerOptions o;
    o.host = a->host;
    o.port = a->port;
    o.max_games = a->max_games;
    o.simulations = a->sims;
    std::shared_ptr<Evaluator> net;
    std::string err;
    if (a->no_model) {
      o.default_level = "expert", o.default_reason = "--no-model";
    } else if (!a->model.empty()) {
      net = load_network(a->model, &err);
      if (!net) {
        return void(rc = report_error(err));
      }
      o.default_level = "net", o.default_reason = "--model";
    } else {
      // The default model is offered as a level whenever it loads; it is the default level only when
      // its record shows that it beats alpha-beta expert (play/default_engine.h).
      DefaultEngine d = choose_default_engine(find_default_model());
      if (!d.model_path.empty()) {
        net = load_network(d.model_path, &err);
        if (!net) {
          report_error(err);
          std::cerr << "serving alpha-beta levels only\n";
          if (d.network) default_network_failed(d, err);
        } else {
          confirm_default_network(d, net->id());
        }
      }
      o.default_level = d.network ? "net" : "expert";
      o.default_reason = d.reason;
    }
    if (net) {
      std::string text;
      if (read_file(strength_record_path(a->model.empty() ? find_default_model() : a->model), text, nullptr))
        o.network_strength = network_strength_line(text);
    }
    std::shared_ptr<PlayerDb> db;
    if (!a->data_dir.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(a->data_dir, ec);
      if (ec) return void(rc = report_error("cannot create --data-dir " + a->data_dir + ": " + ec.message()));
      db = PlayerDb::open(PlayerDb::file_in(a->data_dir), &err);
      if (!db) return void(rc = report_error(err));
    }
    WebServer server(o, net);
    server.store().set_player_db(db);
    int port = server.bind(&err);
    if (port < 0) {
      return void(rc = report_error(err));
    }
    std::cout << "janggi-zero serving on http://" << o.host << ":" << port << "/ ("
              << (net ? "network " + net->id() + " and alpha-beta" : std::string("alpha-beta only")) << ")\n"
              << "default engine: "
              << (o.default_level == "net" ? "network " + net->id() : "alpha-beta " + o.default_level) << " ("
              << o.default_reason << ")\n"
              << (db ? "players and games: " + PlayerDb::file_in(a->data_dir)
                     : std::string("no --data-dir: players and points are off"))
              << std::endl;
    g_server = &server;
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    server.run();
    g_server = nullptr;
    rc = 0;
#else
    rc = report_error("this build has no web server (configured with JZ_WITH_WEB=OFF or without cpp-httplib)");
#endif
  });
}

}  // namespace jz::app
