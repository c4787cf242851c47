#include "web/serve_engine.h"

#include "play/default_engine.h"
#include "play/engine.h"
#include "play/model_path.h"
#include "util/fileio.h"
#include "web/levels.h"

namespace jz {

bool choose_game_engines(GameKind game, const std::string& model, bool no_model, GameEngines& out,
                         std::string* error) {
  out = GameEngines();
  std::string err, path = model;
  if (no_model) {
    out.default_level = "expert", out.default_reason = "--no-model";
    return true;
  }
  if (!model.empty()) {
    out.net = load_network(model, &err);
    if (!out.net) return *error = err, false;
    if (out.net->game() != game) {  // a network refuses the other game
      *error = "network " + out.net->id() + " (" + model + ") plays " + game_name(out.net->game()) + ", not " +
               game_name(game) + ": give it as --" + (out.net->game() == GameKind::XIANGQI ? "xiangqi-" : "") + "model";
      out.net = nullptr;
      return false;
    }
    out.default_level = "net", out.default_reason = "--model";
  } else {
    // The default model is offered as a level whenever it loads; it is the default level only when
    // its record shows that it beats alpha-beta expert.
    DefaultEngine d = choose_default_engine(find_default_model(game), game);
    path = d.model_path;
    if (!d.model_path.empty()) {
      out.net = load_network(d.model_path, &err);
      if (out.net && out.net->game() != game)
        err = "network " + out.net->id() + " plays " + game_name(out.net->game()) + ", not " + game_name(game),
        out.net = nullptr;
      if (!out.net) {
        out.warning = err + "; serving " + game_name(game) + " with alpha-beta levels only";
        if (d.network) default_network_failed(d, err);
      } else {
        confirm_default_network(d, out.net->id());
      }
    }
    out.default_level = d.network ? "net" : "expert";
    out.default_reason = d.reason;
  }
  std::string text;
  if (out.net && read_file(strength_record_path(path), text, nullptr)) out.network_strength = network_strength_line(text);
  return true;
}

bool choose_serve_engines(const std::string& model, bool no_model, ServeEngines& out, std::string* error,
                          const std::string& xiangqi_model) {
  out = ServeEngines();
  return choose_game_engines(GameKind::JANGGI, model, no_model, out, error) &&
         choose_game_engines(GameKind::XIANGQI, xiangqi_model, no_model, out.xiangqi, error);
}

}  // namespace jz
