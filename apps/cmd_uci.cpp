// `janggi-zero uci`: the UCI protocol loop (Janggi conventions: UCI_Variant, a1..i10, pass = e2e2).
#include <iostream>
#include <memory>
#include <sstream>

#include "apps/commands.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/rules.h"

namespace jz::app {

namespace {

class UciSession {
 public:
  UciSession(std::istream& in, std::ostream& out) : in_(in), out_(out) {}

  void loop() {
    std::string line;
    while (std::getline(in_, line)) {
      if (!handle(line)) break;
      out_.flush();
    }
  }

 private:
  void error(const std::string& msg) { out_ << "info string error: " << msg << "\n"; }

  bool handle(const std::string& line) {
    std::istringstream is(line);
    std::string cmd;
    if (!(is >> cmd)) return true;
    if (cmd == "quit") return false;
    if (cmd == "uci") {
      out_ << "id name janggi-zero\nid author janggi-zero developers\n"
           << "option name UCI_Variant type combo default janggi var janggi var janggitraditional"
              " var janggimodern var janggicasual\n"
           << "uciok\n";
    } else if (cmd == "isready") {
      out_ << "readyok\n";
    } else if (cmd == "ucinewgame") {
      pos_ = Position();
      std::string err;
      pos_.set_fen(Position::START_FEN, rules_, &err);
    } else if (cmd == "setoption") {
      setoption(is);
    } else if (cmd == "position") {
      position(is);
    } else if (cmd == "go") {
      go(is);
    } else if (cmd == "d") {
      display();
    } else {
      error("unknown command '" + cmd + "'");
    }
    return true;
  }

  void setoption(std::istringstream& is) {
    std::string tok, name, value;
    bool in_value = false;
    is >> tok;
    if (tok != "name") return error("expected 'setoption name <id> [value <x>]'");
    while (is >> tok) {
      if (tok == "value" && !in_value) { in_value = true; continue; }
      std::string& dst = in_value ? value : name;
      dst += (dst.empty() ? "" : " ") + tok;
    }
    if (name == "UCI_Variant") {
      Ruleset r;
      if (!parse_ruleset(value, r)) return error("unknown UCI_Variant '" + value + "'");
      rules_ = r;
      std::string err;
      pos_.set_fen(Position::START_FEN, rules_, &err);
    } else {
      error("unknown option '" + name + "'");
    }
  }

  void position(std::istringstream& is) {
    std::string tok, fen;
    is >> tok;
    if (tok == "startpos") {
      fen = Position::START_FEN;
      is >> tok;
    } else if (tok == "fen") {
      while (is >> tok && tok != "moves") fen += (fen.empty() ? "" : " ") + tok;
    } else {
      return error("expected 'position startpos|fen <FEN> [moves ...]'");
    }
    Position p;
    std::string err;
    if (!p.set_fen(fen, rules_, &err)) return error(err);
    if (tok == "moves") {
      while (is >> tok) {
        if (game_result(p).over()) return error("move '" + tok + "' after the game ended");
        Move m;
        if (!parse_legal_uci_move(p, tok, m, &err)) return error(err);
        p.do_move(m);
      }
    } else if (!tok.empty() && tok != fen.substr(fen.rfind(' ') + 1) && tok != "startpos") {
      // trailing garbage after the position
    }
    pos_ = p;  // only a fully valid command replaces the position
  }

  void go(std::istringstream& is) {
    std::string tok;
    is >> tok;
    if (tok == "perft") {
      int depth = 0;
      if (!(is >> depth) || depth < 0 || depth > 10) return error("expected 'go perft <depth 0..10>'");
      uint64_t total = 0;
      for (auto& [m, n] : perft_divide(pos_, depth, 1)) {
        out_ << move_to_uci(m) << ": " << n << "\n";
        total += n;
      }
      out_ << "\nNodes searched: " << total << "\n";
      return;
    }
    // Search arrives with the engine; until then answer with the first legal move.
    MoveList list;
    generate_legal(pos_, list);
    out_ << "bestmove " << (list.size ? move_to_uci(list[0]) : "(none)") << "\n";
  }

  void display() {
    for (int r = RANK_NB - 1; r >= 0; --r) {
      out_ << (r + 1 < 10 ? " " : "") << r + 1 << " ";
      for (int f = 0; f < FILE_NB; ++f) {
        Piece p = pos_.piece_on(make_square(f, r));
        static const char* chars = ".KABNRCP";
        char c = chars[type_of(p)];
        out_ << ' ' << (p && color_of(p) == HAN ? char(c + 32) : c);
      }
      out_ << "\n";
    }
    out_ << "    a b c d e f g h i\n\nFen: " << pos_.fen() << "\nVariant: " << ruleset_name(rules_)
         << "\nCheckers:";
    Square cs[16];
    int n = pos_.checkers(cs);
    for (int i = 0; i < n; ++i) out_ << " " << square_name(cs[i]);
    out_ << "\nKey: " << std::hex << pos_.key() << std::dec << "\n";
    GameResult res = game_result(pos_);
    if (res.over()) out_ << "Result: " << res.str() << "\n";
  }

  std::istream& in_;
  std::ostream& out_;
  Ruleset rules_ = Ruleset::JANGGI;
  Position pos_;
};

}  // namespace

void add_uci(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("uci", "Speak the UCI protocol on stdin/stdout");
  cmd->callback([&rc] {
    std::ios::sync_with_stdio(false);
    UciSession session(std::cin, std::cout);
    session.loop();
    rc = 0;
  });
}

}  // namespace jz::app
