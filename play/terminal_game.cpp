#include "play/terminal_game.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/notation_xiangqi.h"
#include "core/setups.h"
#include "play/default_engine.h"
#include "play/model_path.h"

namespace jz {

namespace {

const char* HELP =
    "Moves: UCI (b1c3, pass = e2e2) or Korean numeric (79졸78, 0102, 한수쉼).\n"
    "Commands: pass, undo, hint, resign, save FILE, load FILE, board, moves, help, quit.";
const char* HELP_XIANGQI =
    "Moves: UCI (h3e3), Chinese (炮二平五, 馬8進7, 前俥進一; Simplified too) or WXF (C2.5, H8+7, R+.3).\n"
    "Commands: undo, hint, resign, save FILE, load FILE, board, moves, help, quit.";

bool fail(std::string* error, const std::string& msg) {
  *error = msg;
  return false;
}

}  // namespace

bool TerminalGame::run(std::string* error) {
  if (!setup(error)) return false;
  out_ << "janggi-zero: you play " << (human(CHO) != human(HAN) ? side_name(human(CHO) ? CHO : HAN) : a_.side)
       << " against " << opponent_name() << " (" << ruleset_name(game_.rules())
       << (game_.options().any() ? " with " + rule_options_str(game_.options()) : "") << ", setup "
       << (game_.setup().empty() ? game_.start_fen() : game_.setup()) << "). Type 'help' for commands.\n";
  if (!default_note_.empty()) out_ << default_note_ << "\n";
  show();
  std::string line;
  while (true) {
    if (!game_.over() && !human(game_.pos().side_to_move())) {
      engine_move();
      continue;
    }
    out_ << (game_.over() ? "game over" : side_name(game_.pos().side_to_move())) << "> " << std::flush;
    if (!std::getline(in_, line)) break;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!command(line)) break;
  }
  out_ << "\n";
  return true;
}

std::string TerminalGame::side_name(Color c) const {
  return game_.pos().xiangqi() ? (c == CHO ? "red" : "black") : color_name(c);
}

bool TerminalGame::human(Color c) const {
  return a_.side == "both" || (a_.side == "cho" && c == CHO) || (a_.side == "han" && c == HAN);
}

std::string TerminalGame::opponent_name() const {
  return opponent_ == "net" ? "the network " + engine_.network_id() : "alpha-beta (" + opponent_ + ")";
}

bool TerminalGame::setup(std::string* error) {
  std::string err;
  Ruleset r;
  if (!parse_ruleset(a_.rules, r))
    return fail(error,
                "unknown rule set '" + a_.rules + "' (janggi, janggitraditional, janggimodern, janggicasual, xiangqi)");
  if (game_of(r) == GameKind::XIANGQI && (a_.side == "red" || a_.side == "black"))
    a_.side = a_.side == "red" ? "cho" : "han";  // Xiangqi's names for the same two sides
  if (a_.side != "cho" && a_.side != "han" && a_.side != "both" && a_.side != "none")
    return fail(error, game_of(r) == GameKind::XIANGQI ? "--side must be red (cho), black (han), both or none"
                                                       : "--side must be cho, han, both or none");
  if (!game_.start_setup(a_.cho_setup + "-" + a_.han_setup, r, a_.rule_options, &err)) return fail(error, err);
  if (!a_.load.empty() && !game_.load(a_.load, &err)) return fail(error, err);
  if (!choose_engine(error)) return false;
  engine_.set_simulations(a_.sims);
  engine_.set_threads(a_.threads);
  style_.ascii = a_.ascii;
  style_.hanja = !a_.hangul;
  style_.color = a_.color || (!a_.no_color && !a_.ascii && a_.stdout_is_terminal);
  style_.flip = a_.side == "han";
  return true;
}

bool TerminalGame::choose_engine(std::string* error) {
  std::string err;
  opponent_ = a_.opponent.empty() && !a_.model.empty() ? "net" : a_.opponent;  // --model alone: the network
  const GameKind game = game_.pos().game();
  if (opponent_.empty()) {
    // Nobody chose: the strongest engine by measurement (the game's own shipped network), and why.
    DefaultEngine d = choose_default_engine(find_default_model(game), game);
    if (d.network && game_.options().any()) {  // networks are trained without rule options
      d.network = false;
      d.reason = "the network cannot play rule option " + rule_options_str(game_.options());
    }
    if (d.network) {
      auto net = load_network(d.model_path, &err);
      if (!net)
        default_network_failed(d, err);
      else if (confirm_default_network(d, net->id()) && !engine_.set_network(net, &err))
        default_network_failed(d, err);
    }
    opponent_ = d.network ? "net" : "expert";
    default_note_ = "engine: " + opponent_name() + ", the default (" + d.reason + ")";
  } else if (opponent_ == "net") {
    std::string path = a_.model.empty() ? find_default_model(game) : a_.model;
    if (path.empty())
      return fail(error, std::string("no ") + game_name(game) + " network model found (models/" +
                             default_model_name(game) + "); use --model PATH or --opponent easy|normal|expert");
    auto net = load_network(path, &err);
    if (!net || !engine_.set_network(net, &err)) return fail(error, err);
  }
  if (opponent_ == "net" && !engine_.accepts(game_.pos(), &err)) return fail(error, err);
  if (opponent_ != "net" && !engine_.set_level(opponent_, &err))
    return fail(error, "--opponent must be net, easy, normal or expert (" + err + ")");
  return true;
}

void TerminalGame::show() {
  out_ << "\n" << render_board(game_.pos(), style_);
  const Position& p = game_.pos();
  if (game_.ply()) {
    int i = game_.ply() - 1;
    out_ << "last move: " << move_to_uci(game_.moves()[i]) << " (" << game_.notation(i) << ")\n";
  }
  GameResult r = game_.result();
  if (r.over()) return announce(r);
  out_ << side_name(p.side_to_move()) << " to move"
       << (p.in_check() ? (p.xiangqi() ? ", in check (將軍)" : ", in check (장군)") : "")
       << (p.in_bikjang() ? ", bikjang (빅장)" : "") << "\n";
}

void TerminalGame::announce(const GameResult& r) {
  std::string who = r.winner == Winner::DRAW ? "draw" : side_name(r.winner == Winner::CHO ? CHO : HAN) + " wins";
  out_ << "Game over: " << who << " by " << ending_name(r.ending) << (r.by_counting ? " (counting)" : "") << " - "
       << r.str() << "\n";
}

SearchLimits TerminalGame::limits() const {
  SearchLimits l;
  if (a_.movetime) l.movetime_ms = a_.movetime;
  return l;
}

std::string TerminalGame::describe(const ThinkInfo& t) const {
  std::ostringstream os;
  char buf[64];
  if (t.mate)
    os << "mate in " << std::abs(t.mate) << (t.mate > 0 ? " for the mover" : " against the mover");
  else
    std::snprintf(buf, sizeof buf, "score %+.2f", t.score_cp / 100.0), os << buf;
  if (t.has_wdl) {
    std::snprintf(buf, sizeof buf, ", W/D/L %.1f/%.1f/%.1f%%", t.wdl[0] / 10.0, t.wdl[1] / 10.0, t.wdl[2] / 10.0);
    os << buf;
  }
  os << ", " << (t.network ? "visits " : "depth ") << (t.network ? t.nodes : uint64_t(t.depth));
  if (!t.network) os << ", nodes " << t.nodes;
  os << ", " << t.nps << " n/s, pv";
  Position p = game_.pos();
  for (Move m : t.pv) {
    if (!is_legal(p, m)) break;
    os << " " << move_to_game_notation(p, m);
    p.do_move(m);
  }
  return os.str();
}

void TerminalGame::engine_move() {
  ThinkInfo t;
  Move m = engine_.think(game_.pos(), limits(), {}, nullptr, &t);
  std::string err;
  if (m.is_none()) return out_ << "engine has no move\n", void();
  std::string kor = move_to_game_notation(game_.pos(), m), thinking = describe(t);
  if (!game_.play(m, &err)) return out_ << "engine error: " << err << "\n", void();
  out_ << "engine plays " << move_to_uci(m) << " (" << kor << ")  [" << thinking << "]\n";
  show();
}

bool TerminalGame::command(const std::string& line) {
  std::istringstream is(line);
  std::string cmd, arg, err;
  if (!(is >> cmd)) return true;
  std::getline(is >> std::ws, arg);
  if (cmd == "quit" || cmd == "exit") return false;
  if (cmd == "help" || cmd == "?") {
    out_ << (game_.pos().xiangqi() ? HELP_XIANGQI : HELP) << "\n";
  } else if (cmd == "board") {
    show();
  } else if (cmd == "moves") {
    auto kor = game_.notation_moves();
    for (size_t i = 0; i < kor.size(); ++i)
      out_ << (i % 2 ? "  " : std::to_string(i / 2 + 1) + ". ") << move_to_uci(game_.moves()[i]) << " " << kor[i]
           << (i % 2 ? "\n" : "");
    out_ << (kor.size() % 2 ? "\n" : "");
  } else if (cmd == "undo") {
    int n = 0;
    if (game_.ply() == 0 && !game_.over()) return out_ << "error: nothing to undo\n", true;
    if (game_.result().ending == Ending::RESIGNATION)
      n = game_.undo(0);
    else
      n = game_.undo(1);
    // Take back the engine's reply too, so the human is to move again.
    while (game_.ply() > 0 && !human(game_.pos().side_to_move())) n += game_.undo(1);
    out_ << "took back " << n << " move" << (n == 1 ? "" : "s") << "\n";
    show();
  } else if (cmd == "hint") {
    if (game_.over()) return out_ << "error: the game is over\n", true;
    ThinkInfo t;
    Move m = engine_.think(game_.pos(), limits(), {}, nullptr, &t);
    out_ << "hint: " << move_to_uci(m) << " (" << move_to_game_notation(game_.pos(), m) << ")  [" << describe(t)
         << "]\n";
  } else if (cmd == "resign") {
    if (game_.over()) return out_ << "error: the game is over\n", true;
    game_.resign(game_.pos().side_to_move());
    announce(game_.result());
  } else if (cmd == "save") {
    if (arg.empty()) return out_ << "error: save needs a file name\n", true;
    if (!game_.save(arg, &err))
      out_ << "error: " << err << "\n";
    else
      out_ << "saved " << game_.ply() << " moves to " << arg << "\n";
  } else if (cmd == "load") {
    if (arg.empty()) return out_ << "error: load needs a file name\n", true;
    Game before = game_;
    if (!game_.load(arg, &err)) return out_ << "error: " << err << "\n", true;
    if (!engine_.accepts(game_.pos(), &err)) return game_ = before, out_ << "error: " << err << "\n", true;
    engine_.new_game();
    out_ << "loaded " << game_.ply() << " moves from " << arg << "\n";
    show();
  } else if (cmd == "pass" && game_.pos().xiangqi()) {
    out_ << "error: xiangqi has no pass\n";
  } else {
    Move m;
    if (!game_.play_text(line.substr(line.find_first_not_of(" \t")), &m, &err)) {
      out_ << "error: " << err << "\n";
      return true;
    }
    show();
  }
  return true;
}

}  // namespace jz
