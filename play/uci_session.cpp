// UciSession: one engine conversation (see play/uci_session.h).
#include "play/uci_session.h"

#include <algorithm>
#include <cctype>
#include <atomic>
#include <istream>
#include <memory>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/rules.h"
#include "play/default_engine.h"
#include "play/engine.h"
#include "play/model_path.h"

namespace jz {

namespace {

// Shifts every square's rank number in UCI move text by delta (a1..i10 <-> a0..i9); text that is not a
// move comes back unchanged for the parser to refuse.
std::string shift_ranks(const std::string& text, int delta) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] >= 'a' && text[i] <= 'i' && i + 1 < text.size() && std::isdigit((unsigned char)text[i + 1])) {
      size_t j = i + 1;
      while (j < text.size() && std::isdigit((unsigned char)text[j])) ++j;
      if (j - i > 3) return text;
      out += text[i] + std::to_string(std::stoi(text.substr(i + 1, j - i - 1)) + delta);
      i = j;
    } else {
      out += text[i++];
    }
  }
  return out;
}
std::string uci_ranks_from_zero(const std::string& uci) { return shift_ranks(uci, -1); }
std::string uci_ranks_from_one(const std::string& text) { return shift_ranks(text, +1); }

class UciSession {
 public:
  UciSession(std::istream& in, std::ostream& out, const UciLimits& limits, NetworkLoader loader)
      : in_(in),
        out_(out),
        limits_(limits),
        loader_(loader ? std::move(loader) : NetworkLoader(load_network)),
        default_hash_mb_(std::max(1, std::min(16, limits.max_hash_mb))),
        engine_(default_hash_mb_) {
    new_game();
    // A tied input (std::cin is tied to std::cout) flushes the output before every read, on this
    // thread and without out_mutex_, while the search thread writes to it: a data race on the
    // output's buffer (ThreadSanitizer). say() flushes every line itself, so the tie is not needed.
    tied_ = in_.tie(nullptr);
  }
  ~UciSession() {
    finish_search(true);
    in_.tie(tied_);
  }

  void loop() {
    std::string line;
    while (std::getline(in_, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!handle(line)) return;
    }
    // End of input: finite searches complete (so `echo go depth 5 | janggi-zero uci` works).
    finish_search(infinite_);
  }

 private:
  // Rule options are Janggi's: a Xiangqi game keeps them set for the next Janggi game but plays without.
  RuleOptions game_options() const { return game_of(rules_) == GameKind::JANGGI ? options_ : RuleOptions{}; }
  void new_game() {
    std::string err;
    pos_.set_fen(Position::start_fen(rules_), rules_, game_options(), &err);
    engine_.new_game();
  }
  // Moves as the GUI writes them: ranks 1-10 (Fairy-Stockfish) or 0-9 (Pikafish and most Xiangqi GUIs).
  std::string uci_in(const std::string& text) const { return ranks_from_zero_ ? uci_ranks_from_one(text) : text; }
  std::string uci_out(Move m) const { return ranks_from_zero_ ? uci_ranks_from_zero(move_to_uci(m)) : move_to_uci(m); }

  void say(const std::string& s) {
    std::lock_guard<std::mutex> lock(out_mutex_);
    out_ << s << "\n";
    out_.flush();
  }
  void error(const std::string& msg) { say("info string error: " + msg); }

  bool handle(const std::string& line) {
    std::istringstream is(line);
    std::string cmd;
    if (!(is >> cmd)) return true;
    if (cmd == "quit") return finish_search(true), false;
    if (cmd == "stop") return finish_search(true), true;
    if (cmd == "isready") {
      if (!searching_) ensure_network();  // the engine is the search thread's while it runs
      return say("readyok"), true;
    }
    if (cmd == "ponderhit") return true;
    if (cmd == "uci") return uci(), true;
    if (cmd == "d") return display(), true;
    // Everything else changes what the search reads: a finite search completes first (as in
    // Stockfish, so piped scripts work), an infinite one is stopped.
    finish_search(infinite_);
    if (cmd == "ucinewgame") {
      new_game();
    } else if (cmd == "setoption") {
      setoption(is);
    } else if (cmd == "position") {
      position(is);
    } else if (cmd == "go") {
      go(is);
    } else {
      error("unknown command '" + cmd + "'");
    }
    return true;
  }

  void uci() {
    say("id name janggi-zero\nid author janggi-zero developers");
    say("option name UCI_Variant type combo default janggi var janggi var janggitraditional var janggimodern"
        " var janggicasual var xiangqi");
    say("option name RanksFromZero type check default false");
    say("option name ModelPath type string default <default>");
    say("option name UseNetwork type combo default auto var auto var true var false");
    say("option name Simulations type spin default 800 min 1 max 10000000");
    say("option name TacticsCheck type spin default " + std::to_string(engine_.tactics_depth()) + " min 0 max 8");
    say("option name Threads type spin default 1 min 1 max 256");
    say("option name Hash type spin default " + std::to_string(default_hash_mb_) + " min 1 max " +
        std::to_string(limits_.max_hash_mb));
    say("option name Level type combo default expert var easy var normal var expert");
    say("option name UCI_ShowWDL type check default false");
    for (int i = 0; i < RULE_OPTION_NB; ++i)
      say(std::string("option name ") + rule_option_name(i) + " type check default false");
    say("uciok");
  }

  // Loads a model file once per path (the last one, or its error, is kept); nullptr + *error on
  // failure, *fresh when this call tried to load it.
  std::shared_ptr<Evaluator> network_for(const std::string& path, std::string* error, bool* fresh = nullptr) {
    if (fresh) *fresh = path != net_path_;
    if (path != net_path_) {
      net_path_ = path;
      net_error_.clear();
      net_ = play_has_mcts() ? loader_(path, &net_error_) : nullptr;
      if (!net_ && net_error_.empty()) net_error_ = "this build has no MCTS search: network play is unavailable";
    }
    if (!net_ && error) *error = net_error_;
    return net_;
  }

  // Decides which engine plays from the options (play/default_engine.h for the default), loads the
  // network if it is one, and says in an info string which engine plays and why whenever that changes.
  void ensure_network() {
    std::string err, why;
    std::shared_ptr<Evaluator> net;
    auto want = [&](const std::string& path, const std::string& reason) {
      bool fresh = false;
      net = network_for(path, &err, &fresh);
      if (!net && fresh) error("cannot use model '" + path + "': " + err + "; playing with alpha-beta");
      why = net ? reason : "model '" + path + "' failed to load";
    };
    if (use_network_ == "false") {
      why = "UseNetwork false";
    } else if (model_choice_ == ModelChoice::NONE) {
      why = "ModelPath <empty>";
    } else if (model_choice_ == ModelChoice::PATH) {
      want(model_path_, "ModelPath");
    } else if (use_network_ == "true") {
      std::string path = find_default_model(pos_.game());
      if (path.empty())
        why = std::string("UseNetwork true, but no network model found (models/") + default_model_name(pos_.game()) + ")";
      else
        want(path, "UseNetwork true");
    } else if (level_set_) {
      why = "Level " + engine_.level();
    } else {
      const int g = int(pos_.game());  // each game has its own shipped network
      if (!default_decided_[g])
        default_[g] = choose_default_engine(find_default_model(pos_.game()), pos_.game()), default_decided_[g] = true;
      DefaultEngine& d = default_[g];
      if (d.network) {
        net = network_for(d.model_path, &err);
        if (!net)
          default_network_failed(d, err);
        else if (!confirm_default_network(d, net->id()))
          net = nullptr;
      }
      why = "default: " + d.reason;
      if (std::string refused; net && !network_accepts(*net, pos_, &refused)) {  // alpha-beta plays every game
        net = nullptr;
        why = "default: " + refused;
      }
    }
    if (net != playing_) engine_.set_network(net, &err);  // a new network starts a new game for it
    playing_ = net;
    std::string what = net ? "network " + net->id() : "alpha-beta " + engine_.level();
    std::string line = "info string engine: " + what + " (" + why + ")";
    if (line != announced_) say(line);
    announced_ = line;
  }

  static bool parse_int(const std::string& v, long long lo, long long hi, long long& out) {
    try {
      size_t used;
      out = std::stoll(v, &used);
      return used == v.size() && out >= lo && out <= hi;
    } catch (...) {
      return false;
    }
  }

  static bool parse_bool(const std::string& v, bool& out) {
    if (v == "true") return out = true, true;
    if (v == "false") return out = false, true;
    return false;
  }

  void setoption(std::istringstream& is) {
    std::string tok, name, value;
    bool in_value = false;
    is >> tok;
    if (tok != "name") return error("expected 'setoption name <id> [value <x>]'");
    while (is >> tok) {
      if (tok == "value" && !in_value) {
        in_value = true;
        continue;
      }
      std::string& dst = in_value ? value : name;
      dst += (dst.empty() ? "" : " ") + tok;
    }
    long long n;
    bool b;
    std::string err;
    if (name == "UCI_Variant") {
      Ruleset r;
      if (!parse_ruleset(value, r)) return error("unknown UCI_Variant '" + value + "'");
      rules_ = r;
      new_game();
    } else if (name == "ModelPath") {
      model_choice_ = value == "<empty>" || value.empty() ? ModelChoice::NONE
                      : value == "<default>"              ? ModelChoice::DEFAULT
                                                          : ModelChoice::PATH;
      model_path_ = model_choice_ == ModelChoice::PATH ? value : "";
      if (model_choice_ == ModelChoice::DEFAULT) default_decided_[0] = default_decided_[1] = false;  // look again
    } else if (name == "UseNetwork") {
      if (value != "auto" && value != "true" && value != "false")
        return error("UseNetwork needs auto, true or false, got '" + value + "'");
      use_network_ = value;
    } else if (name == "Simulations") {
      if (!parse_int(value, 1, 10000000, n)) return error("Simulations needs 1..10000000, got '" + value + "'");
      engine_.set_simulations(int(n));
    } else if (name == "TacticsCheck") {
      if (!parse_int(value, 0, 8, n)) return error("TacticsCheck needs 0..8 (plies; 0 = off), got '" + value + "'");
      engine_.set_tactics_depth(int(n));
    } else if (name == "Threads") {
      if (!parse_int(value, 1, 256, n)) return error("Threads needs 1..256, got '" + value + "'");
      engine_.set_threads(int(n));
    } else if (name == "Hash") {
      if (!parse_int(value, 1, limits_.max_hash_mb, n))
        return error("Hash needs 1.." + std::to_string(limits_.max_hash_mb) + " (MB), got '" + value + "'");
      engine_.set_hash(int(n));
    } else if (name == "Level") {
      if (!engine_.set_level(value, &err)) return error(err);
      level_set_ = true;
    } else if (name == "UCI_ShowWDL") {
      if (!parse_bool(value, b)) return error("UCI_ShowWDL needs true or false, got '" + value + "'");
      show_wdl_ = b;
    } else if (RuleOptions one; parse_rule_option(name, one)) {
      if (!parse_bool(value, b)) return error(name + " needs true or false, got '" + value + "'");
      options_.bits = uint8_t(b ? options_.bits | one.bits : options_.bits & ~one.bits);
      new_game();  // like UCI_Variant
    } else if (name == "RanksFromZero") {
      if (!parse_bool(value, b)) return error("RanksFromZero needs true or false, got '" + value + "'");
      ranks_from_zero_ = b;
    } else {
      error("unknown option '" + name + "'");
    }
  }

  void position(std::istringstream& is) {
    std::string tok, fen;
    is >> tok;
    bool startpos = tok == "startpos";
    if (startpos) {
      fen = Position::start_fen(rules_);
      tok.clear();
      is >> tok;
    } else if (tok == "fen") {
      tok.clear();
      while (is >> tok && tok != "moves") fen += (fen.empty() ? "" : " ") + tok;
    } else {
      return error("expected 'position startpos|fen <FEN> [moves ...]'");
    }
    if (startpos && !tok.empty() && tok != "moves") return error("unexpected '" + tok + "' after 'position startpos'");
    Position p;
    std::string err;
    if (!p.set_fen(fen, rules_, game_options(), &err)) return error(err);
    if (tok == "moves") {
      while (is >> tok) {
        if (game_result(p).over()) return error("move '" + tok + "' after the game ended");
        Move m;
        if (!parse_legal_uci_move(p, uci_in(tok), m, &err)) return error(err);
        p.do_move(m);
      }
    }
    pos_ = p;  // only a fully valid command replaces the position
  }

  void go(std::istringstream& is) {
    SearchLimits l;
    std::string tok;
    while (is >> tok) {
      if (tok == "perft") {
        long long depth;
        if (!(is >> tok) || !parse_int(tok, 0, limits_.max_perft_depth, depth))
          return error("expected 'go perft <depth 0.." + std::to_string(limits_.max_perft_depth) + ">'");
        uint64_t total = 0;
        std::ostringstream os;
        for (auto& [m, c] : perft_divide(pos_, int(depth), 1)) {
          os << uci_out(m) << ": " << c << "\n";
          total += c;
        }
        os << "\nNodes searched: " << total;
        return say(os.str());
      }
      if (tok == "infinite") {
        l.infinite = true;
        continue;
      }
      if (tok == "ponder") continue;  // pondering is not supported: searched as a normal go
      long long v;
      std::string val;
      static const char* keys[] = {"depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo"};
      bool known = false;
      for (const char* k : keys) known |= tok == k;
      if (!known) return error("unknown go parameter '" + tok + "'");
      if (!(is >> val) || !parse_int(val, tok == "wtime" || tok == "btime" ? -100000000 : 0, 1LL << 40, v))
        return error("go " + tok + " needs a number, got '" + val + "'");
      if (tok == "depth")
        l.depth = int(std::min<long long>(v, 64));
      else if (tok == "nodes")
        l.nodes = uint64_t(v);
      else if (tok == "movetime")
        l.movetime_ms = int(std::min<long long>(v, 1LL << 30));
      else if (tok == "wtime")
        l.time_ms[CHO] = int(std::max<long long>(1, std::min<long long>(v, 1LL << 30)));
      else if (tok == "btime")
        l.time_ms[HAN] = int(std::max<long long>(1, std::min<long long>(v, 1LL << 30)));
      else if (tok == "winc")
        l.inc_ms[CHO] = int(std::min<long long>(v, 1LL << 30));
      else if (tok == "binc")
        l.inc_ms[HAN] = int(std::min<long long>(v, 1LL << 30));
      else if (tok == "movestogo")
        l.movestogo = int(std::min<long long>(v, 1000));
    }
    l.max_ms = limits_.max_think_ms;
    l.max_nodes = limits_.max_nodes;
    ensure_network();
    if (std::string why; !engine_.accepts(pos_, &why)) {
      error(why);
      say("bestmove (none)");
      return;
    }
    GameResult res = game_result(pos_);
    if (res.over()) say("info string game over: " + res.str());
    stop_ = false;
    infinite_ = l.infinite;
    searching_ = true;
    Position pos = pos_;
    search_thread_ = std::thread([this, pos, l] { search(pos, l); });
  }

  void search(const Position& pos, const SearchLimits& l) {
    ThinkInfo fin;
    Move best = Move::none();
    try {
      best = engine_.think(
          pos, l, [&](const ThinkInfo& ti) { say(info_line(ti)); }, &stop_, &fin);
      if (!best.is_none()) say(info_line(fin));
    } catch (const std::exception& e) {  // e.g. the network failed: the session stays alive
      error(std::string("search failed: ") + e.what());
    }
    // UCI: under `go infinite` the best move waits for `stop`.
    while (infinite_ && !stop_) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    say("bestmove " + (best.is_none() ? std::string("(none)") : uci_out(best)));
  }

  std::string info_line(const ThinkInfo& t) {
    std::ostringstream os;
    os << "info depth " << std::max(1, t.depth) << " seldepth " << std::max(t.depth, t.seldepth) << " multipv 1";
    if (t.mate)
      os << " score mate " << t.mate;
    else
      os << " score cp " << t.score_cp;
    if (show_wdl_ && t.has_wdl) os << " wdl " << t.wdl[0] << " " << t.wdl[1] << " " << t.wdl[2];
    os << " nodes " << t.nodes << " nps " << t.nps;
    if (!t.network) os << " hashfull " << t.hashfull;
    os << " time " << t.time_ms << " pv";
    for (Move m : t.pv) os << " " << uci_out(m);
    return os.str();
  }

  // Ends the running search: stops it (stop=true) or waits for it, then joins.
  void finish_search(bool stop) {
    if (!searching_) return;
    if (stop) stop_ = true;
    search_thread_.join();
    searching_ = false;
    infinite_ = false;
  }

  void display() {
    std::ostringstream os;
    for (int r = RANK_NB - 1; r >= 0; --r) {
      os << (r + 1 < 10 ? " " : "") << r + 1 << " ";
      for (int f = 0; f < FILE_NB; ++f) {
        Piece p = pos_.piece_on(make_square(f, r));
        static const char* chars = ".KABNRCP";
        char c = chars[type_of(p)];
        os << ' ' << (p && color_of(p) == HAN ? char(c + 32) : c);
      }
      os << "\n";
    }
    os << "    a b c d e f g h i\n\nFen: " << pos_.fen() << "\nVariant: " << ruleset_name(rules_) << "\nCheckers:";
    Square cs[16];
    int n = pos_.checkers(cs);
    for (int i = 0; i < n; ++i) os << " " << square_name(cs[i]);
    os << "\nKey: " << std::hex << pos_.key() << std::dec;
    GameResult res = game_result(pos_);
    if (res.over()) os << "\nResult: " << res.str();
    os << "\nEngine: "
       << (engine_.using_network() ? "network " + engine_.network_id() : "alpha-beta " + engine_.level());
    say(os.str());
  }

  std::istream& in_;
  std::ostream& out_;
  std::ostream* tied_ = nullptr;  // in_'s tie before the session, restored after it
  const UciLimits limits_;
  NetworkLoader loader_;
  const int default_hash_mb_;  // 16 MB unless the limits allow less
  std::mutex out_mutex_;
  Ruleset rules_ = Ruleset::JANGGI;
  RuleOptions options_;  // rule options, one check option each (docs/rules.md)
  Position pos_;
  PlayEngine engine_;
  // The engine choice: ModelPath (<default>: decided by play/default_engine.h), UseNetwork, Level.
  enum class ModelChoice { DEFAULT, NONE, PATH };
  ModelChoice model_choice_ = ModelChoice::DEFAULT;
  std::string model_path_;            // ModelPath when PATH
  std::string use_network_ = "auto";  // auto, true, false
  bool level_set_ = false;
  DefaultEngine default_[2];  // the default choice per game, decided once (again after ModelPath <default>)
  bool default_decided_[2] = {false, false};
  std::shared_ptr<Evaluator> net_;      // the last network loaded, and its path (or its load error)
  std::shared_ptr<Evaluator> playing_;  // the network the engine has (nullptr: alpha-beta)
  std::string net_path_, net_error_;
  std::string announced_;  // the last "info string engine: ..." line
  bool show_wdl_ = false;
  bool ranks_from_zero_ = false;
  std::thread search_thread_;
  std::atomic<bool> stop_{false}, infinite_{false};
  bool searching_ = false;
};

}  // namespace

void run_uci(std::istream& in, std::ostream& out, const UciLimits& limits, NetworkLoader loader) {
  UciSession session(in, out, limits, std::move(loader));
  session.loop();
}

}  // namespace jz
