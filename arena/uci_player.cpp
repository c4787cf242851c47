// uci:PATH [ARGS...][,movetime=MS|nodes=N|depth=D][,timeout=MS][,stderr=1][,Option=Value...]
// An external engine over UCI (Janggi conventions: UCI_Variant, a1..i10, pass = general's square twice).
// Every reply is checked by our rules core; a crash, a timeout, a missing or an illegal move forfeits.
#include <algorithm>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "arena/player.h"
#include "core/notation.h"
#include "util/log.h"
#include "util/process.h"

namespace jz {

namespace {

const std::vector<std::string> CLIENT_KEYS = {"movetime", "nodes", "depth", "timeout", "stderr"};

bool is_client_key(const std::string& k) {
  for (auto& c : CLIENT_KEYS)
    if (k == c) return true;
  return k == "name";
}

std::vector<std::string> split_words(const std::string& s) {
  std::istringstream is(s);
  std::vector<std::string> out;
  for (std::string w; is >> w;) out.push_back(w);
  return out;
}

bool executable(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

bool find_program(const std::string& prog) {
  if (prog.find('/') != std::string::npos) return executable(prog);
  const char* path = std::getenv("PATH");
  std::istringstream is(path ? path : "");
  for (std::string dir; std::getline(is, dir, ':');)
    if (!dir.empty() && executable(dir + "/" + prog)) return true;
  return false;
}

struct UciSettings {
  std::vector<std::string> argv;
  std::string go;      // "go movetime 1000"
  double timeout = 0;  // seconds per move before the engine forfeits on time
  bool keep_stderr = false;
  std::vector<std::pair<std::string, std::string>> engine_options;
};

class UciPlayer : public Player {
 public:
  explicit UciPlayer(UciSettings s) : s_(std::move(s)) {}
  ~UciPlayer() override {
    if (proc_.running()) {
      proc_.write_line("quit");
      proc_.stop(1.0);
    }
  }

  bool new_game(Ruleset rules, std::string* error) override {
    if (!proc_.running() || rules != rules_) {
      if (!start(rules, error)) return false;
    }
    proc_.write_line("ucinewgame");
    return wait_ready(30, error);
  }

  // Rule options travel as check options of the same names (janggi-zero uci has them).
  bool accepts(const Position& start, std::string* error) override {
    for (int i = 0; i < RULE_OPTION_NB; ++i) {
      bool on = start.options().bits & (1 << i);
      if (on && !has(rule_option_name(i))) {
        *error = "engine '" + s_.argv[0] + "' has no option '" + rule_option_name(i) + "'";
        return false;
      }
      if (has(rule_option_name(i)))
        proc_.write_line(std::string("setoption name ") + rule_option_name(i) + " value " + (on ? "true" : "false"));
    }
    return wait_ready(30, error);
  }

  PlayerReply play(const Position& pos, const std::string& start_fen, const std::vector<Move>& moves) override {
    PlayerReply r;
    if (!dead_.empty()) {
      r.error = dead_;
      return r;
    }
    std::string cmd = "position fen " + start_fen;
    if (!moves.empty()) {
      cmd += " moves";
      for (Move m : moves) cmd += " " + move_to_uci(m);
    }
    if (!proc_.write_line(cmd) || !proc_.write_line(s_.go)) return fail(r, "engine closed its input");
    double deadline = now_seconds() + s_.timeout;
    std::string line;
    for (;;) {
      auto st = proc_.read_line(line, deadline);
      if (st == Subprocess::ReadStatus::TIMEOUT) {
        r.forfeit = Ending::TIME;
        return fail(r, "no bestmove within " + format_string("%.1f", s_.timeout) + " s");
      }
      if (st == Subprocess::ReadStatus::CLOSED) return fail(r, "engine died while thinking");
      auto w = split_words(line);
      if (w.empty()) continue;
      if (w[0] == "info") {
        parse_nodes(w, r);
        if (line.find(" score ") != std::string::npos) {
          r.info = line.substr(5);
          parse_score(w, r);
        }
        continue;
      }
      if (w[0] != "bestmove") continue;
      if (w.size() < 2 || w[1] == "(none)" || w[1] == "0000")
        return fail(r, "engine gave no move ('" + line + "')", false);
      std::string err;
      if (!parse_legal_uci_move(pos, w[1], r.move, &err)) {
        r.move = Move::none();
        return fail(r, "illegal move '" + w[1] + "': " + err, false);
      }
      return r;
    }
  }

 private:
  // "info ... score cp X | score mate N ..." (bounds are kept too: the last report is the best we have).
  static void parse_score(const std::vector<std::string>& w, PlayerReply& r) {
    for (size_t i = 0; i + 2 < w.size(); ++i) {
      if (w[i] != "score") continue;
      try {
        int v = std::stoi(w[i + 2]);
        if (w[i + 1] == "cp") r.has_score = true, r.score_cp = v, r.mate = 0;
        if (w[i + 1] == "mate") r.has_score = true, r.mate = v, r.score_cp = v > 0 ? 32000 : -32000;
      } catch (...) {}
      return;
    }
  }

  // "info ... nodes N ...": the engine's count so far (the last report is the search's total).
  static void parse_nodes(const std::vector<std::string>& w, PlayerReply& r) {
    if (w.size() > 1 && w[1] == "string") return;  // free text
    for (size_t i = 1; i + 1 < w.size(); ++i) {
      if (w[i] != "nodes") continue;
      try {
        long long v = std::stoll(w[i + 1]);
        if (v >= 0) r.nodes = v;
      } catch (...) {}
      return;
    }
  }

  PlayerReply& fail(PlayerReply& r, const std::string& why, bool kill = true) {
    r.error = why;
    if (kill && proc_.running()) {
      proc_.stop(0.5);
      r.error += " (" + proc_.exit_status() + ")";
    }
    dead_ = r.error;
    return r;
  }

  bool start(Ruleset rules, std::string* error) {
    if (proc_.running()) proc_.stop(0.5);
    dead_.clear();
    rules_ = rules;
    if (!proc_.start_piped(s_.argv, s_.keep_stderr, error)) return false;
    proc_.write_line("uci");
    std::string line;
    std::vector<std::string>& options = advertised_;
    options.clear();
    double deadline = now_seconds() + 10;
    for (;;) {
      auto st = proc_.read_line(line, deadline);
      if (st != Subprocess::ReadStatus::LINE) return startup_error("no 'uciok' after 'uci'", st, error);
      if (line == "uciok") break;
      auto w = split_words(line);
      // "option name <id words> type ...": the name runs up to "type".
      if (w.size() >= 3 && w[0] == "option" && w[1] == "name") {
        std::string name;
        for (size_t i = 2; i < w.size() && w[i] != "type"; ++i) name += (name.empty() ? "" : " ") + w[i];
        options.push_back(name);
      }
    }
    auto has = [&](const std::string& n) {
      for (auto& o : options)
        if (o == n) return true;
      return false;
    };
    for (auto& [k, v] : s_.engine_options) {
      if (!has(k)) {
        *error = "engine '" + s_.argv[0] + "' has no option '" + k + "'";
        return false;
      }
    }
    proc_.write_line(std::string("setoption name UCI_Variant value ") + ruleset_name(rules));
    for (auto& [k, v] : s_.engine_options) proc_.write_line("setoption name " + k + " value " + v);
    return wait_ready(30, error);
  }

  bool wait_ready(double seconds, std::string* error) {
    proc_.write_line("isready");
    std::string line;
    double deadline = now_seconds() + seconds;
    for (;;) {
      auto st = proc_.read_line(line, deadline);
      if (st != Subprocess::ReadStatus::LINE) return startup_error("no 'readyok' after 'isready'", st, error);
      if (line == "readyok") return true;
      if (line.rfind("info string error", 0) == 0) {
        *error = "engine '" + s_.argv[0] + "': " + line.substr(12);
        return false;
      }
    }
  }

  bool startup_error(const std::string& what, Subprocess::ReadStatus st, std::string* error) {
    bool closed = st == Subprocess::ReadStatus::CLOSED;
    proc_.stop(0.5);
    *error =
        "engine '" + s_.argv[0] + "': " + what + (closed ? " (it exited: " : " (timeout; ") + proc_.exit_status() + ")";
    return false;
  }

  UciSettings s_;
  Subprocess proc_;
  Ruleset rules_ = Ruleset::JANGGI;
  std::string dead_;                     // why the engine can no longer play (after a forfeit)
  std::vector<std::string> advertised_;  // option names from 'uci'
  bool has(const std::string& n) const {
    return std::find(advertised_.begin(), advertised_.end(), n) != advertised_.end();
  }
};

}  // namespace

bool make_uci_player(const PlayerSpec& s, uint64_t, std::unique_ptr<Player>* out, std::string* error) {
  UciSettings u;
  u.argv = split_words(s.arg);
  if (u.argv.empty()) {
    *error = "player spec '" + s.text + "': uci needs a program, as uci:PATH [ARGS...][,Option=Value...]";
    return false;
  }
  if (!find_program(u.argv[0])) {
    *error = "player spec '" + s.text + "': no executable program '" + u.argv[0] + "'";
    return false;
  }
  int64_t movetime = -1, nodes = -1, depth = -1, timeout = -1, keep = 0;
  if (!spec_int(s, "movetime", 1, 86400000, movetime, error) || !spec_int(s, "nodes", 1, INT64_MAX, nodes, error) ||
      !spec_int(s, "depth", 1, 1000, depth, error) || !spec_int(s, "timeout", 1, 86400000, timeout, error) ||
      !spec_int(s, "stderr", 0, 1, keep, error))
    return false;
  if ((movetime > 0) + (nodes > 0) + (depth > 0) > 1) {
    *error = "player spec '" + s.text + "': give at most one of movetime, nodes, depth";
    return false;
  }
  if (nodes > 0) {
    u.go = "go nodes " + std::to_string(nodes);
  } else if (depth > 0) {
    u.go = "go depth " + std::to_string(depth);
  } else {
    if (movetime < 0) movetime = 1000;
    u.go = "go movetime " + std::to_string(movetime);
  }
  // Engines overrun movetime a little; searches bounded by nodes or depth get a minute.
  u.timeout = timeout > 0 ? timeout / 1000.0 : movetime > 0 ? 2.0 * movetime / 1000.0 + 1.0 : 60.0;
  u.keep_stderr = keep == 1;
  for (auto& [k, v] : s.options) {
    if (is_client_key(k)) continue;
    if (v.empty()) {
      *error = "player spec '" + s.text + "': option '" + k + "' needs a value";
      return false;
    }
    u.engine_options.emplace_back(k, v);
  }
  if (out) out->reset(new UciPlayer(std::move(u)));
  return true;
}

}  // namespace jz
