#include "arena/match.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "arena/player.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/random_play.h"
#include "core/setups.h"
#include "util/log.h"
#include "util/random.h"

namespace jz {

namespace {


std::string move_text(Move m) {
  if (m.is_none()) return "(none)";
  return m.from() < SQUARE_NB && m.to() < SQUARE_NB ? move_to_uci(m) : "(invalid)";
}

struct GameSetup {
  int index, pair;
  bool player1_cho;
  const Opening* opening;
};

bool stop_requested(const MatchConfig& cfg) { return cfg.stop && cfg.stop->load() != 0; }

// Plays one game to its end; the referee (game_result) decides every ending the players do not.
// A stop request abandons the game: *abandoned is set and rec is not a finished game.
bool play_game(const MatchConfig& cfg, const MatchResult& names, const GameSetup& g, MatchRecord& rec,
               bool* abandoned, std::string* error) {
  *abandoned = false;
  double t0 = now_seconds();
  rec = MatchRecord();
  rec.index = g.index;
  rec.pair = g.pair;
  rec.player1_cho = g.player1_cho;
  rec.cho = g.player1_cho ? names.name1 : names.name2;
  rec.han = g.player1_cho ? names.name2 : names.name1;
  rec.setup = setup_name(cfg.rules, g.opening->setup);
  rec.start_fen = g.opening->fen;
  rec.rules = cfg.rules;
  rec.options = cfg.options;
  rec.opening_plies = int(g.opening->moves.size());
  rec.moves = g.opening->moves;

  const std::string& cho_spec = g.player1_cho ? cfg.player1 : cfg.player2;
  const std::string& han_spec = g.player1_cho ? cfg.player2 : cfg.player1;
  std::unique_ptr<Player> players[2];
  players[CHO] = make_player(cho_spec, hash_combine(cfg.seed, 2 * uint64_t(g.index) + 1), error);
  if (!players[CHO]) return false;
  players[HAN] = make_player(han_spec, hash_combine(cfg.seed, 2 * uint64_t(g.index) + 2), error);
  if (!players[HAN]) return false;
  for (Color c : {CHO, HAN})
    if (!players[c]->new_game(cfg.rules, error)) return false;

  Position pos;
  if (!pos.set_fen(rec.start_fen, cfg.rules, cfg.options, error)) return false;
  for (Color c : {CHO, HAN})
    if (!players[c]->accepts(pos, error)) return false;
  for (Move m : rec.moves) pos.do_move(m);
  for (;;) {
    if (stop_requested(cfg)) return *abandoned = true;
    GameResult res = game_result(pos);
    if (res.over()) {
      rec.result = res;
      break;
    }
    if (pos.history_size() >= cfg.max_plies) {
      rec.result = decide(pos, Ending::LENGTH_CAP);
      break;
    }
    Color us = pos.side_to_move();
    PlayerReply reply;
    try {
      reply = players[us]->play(pos, rec.start_fen, rec.moves);
    } catch (const std::exception& e) {
      reply.error = std::string("exception: ") + e.what();
    }
    if (reply.error.empty() && !is_legal(pos, reply.move)) reply.error = "illegal move " + move_text(reply.move);
    if (!reply.error.empty()) {
      rec.result.winner = winner_of(~us);
      rec.result.ending = reply.forfeit;
      rec.reason = std::string(color_name(us)) + " (" + (us == CHO ? rec.cho : rec.han) + "): " + reply.error;
      break;
    }
    if (reply.nodes >= 0) rec.nodes[us] += reply.nodes, rec.searched_moves[us]++;
    pos.do_move(reply.move);
    rec.moves.push_back(reply.move);
  }
  rec.seconds = now_seconds() - t0;
  return true;
}

}  // namespace

Opening make_opening(const MatchConfig& cfg, int pair) {
  std::vector<int> setups = cfg.setups;
  if (setups.empty())
    for (int i = 0; i < setup_count(cfg.rules); ++i) setups.push_back(i);
  // Each round of |setups| pairs visits every setup once, in a seeded order.
  int round = pair / int(setups.size());
  std::mt19937_64 order_rng(hash_combine(cfg.seed, 0x5e7u + uint64_t(round)));
  std::shuffle(setups.begin(), setups.end(), order_rng);
  Opening o;
  o.setup = setups[size_t(pair) % setups.size()];
  o.fen = setup_fen(cfg.rules, o.setup);
  for (int attempt = 0; attempt < 1000 && cfg.opening_plies > 0; ++attempt) {
    std::mt19937_64 rng(hash_combine(hash_combine(cfg.seed, uint64_t(pair)), uint64_t(attempt)));
    Position pos;
    std::string err;
    pos.set_fen(o.fen, cfg.rules, cfg.options, &err);
    o.moves.clear();
    random_walk(pos, cfg.opening_plies, rng, false, &o.moves);
    if (int(o.moves.size()) == cfg.opening_plies && !game_result(pos).over()) break;
  }
  return o;
}

std::string MatchResult::progress_line(int total_games) const {
  std::string s = format_string("games %lld/%d  +%lld =%lld -%lld  score %.3f  Elo %s", (long long)wdl.n(), total_games,
                                (long long)wdl.w, (long long)wdl.d, (long long)wdl.l, wdl.score(), elo().str().c_str());
  return s;
}

double MatchResult::nodes_per_move(int player) const {
  int64_t nodes = 0, moves = 0;
  for (auto& g : games) {
    Color c = (player == 1) == g.player1_cho ? CHO : HAN;
    nodes += g.nodes[c], moves += g.searched_moves[c];
  }
  return moves > 0 ? double(nodes) / double(moves) : -1;
}

int MatchResult::repeated_games() const {
  std::set<std::string> seen;
  for (auto& g : games) {
    std::string key = g.start_fen + (g.player1_cho ? " 1" : " 2");
    for (Move m : g.moves) key += " " + move_to_uci(m);
    seen.insert(key);
  }
  return int(games.size() - seen.size());
}

std::string MatchResult::summary() const {
  std::string s;
  s += format_string("%s vs %s: %lld games, +%lld =%lld -%lld, score %.1f%% (%.1f s)\n", name1.c_str(), name2.c_str(),
                     (long long)wdl.n(), (long long)wdl.w, (long long)wdl.d, (long long)wdl.l, 100 * wdl.score(),
                     seconds);
  s += "Elo (trinomial):   " + elo_tri.str() + "\n";
  if (penta.n() > 0) {
    s += "Elo (pentanomial): " + elo_penta.str() +
         format_string("  pairs 0:%lld 1/2:%lld 1:%lld 3/2:%lld 2:%lld\n", (long long)penta.p[0], (long long)penta.p[1],
                       (long long)penta.p[2], (long long)penta.p[3], (long long)penta.p[4]);
  }
  s += format_string("LOS: %.1f%%\n", 100 * los);
  std::map<std::string, int> endings;
  for (auto& g : games)
    endings[std::string(ending_name(g.result.ending)) + (g.result.by_counting ? " (counting)" : "")]++;
  s += "Endings:";
  for (auto& [k, v] : endings) s += format_string(" %s %d,", k.c_str(), v);
  if (!endings.empty()) s.pop_back();
  s += "\n";
  double n1 = nodes_per_move(1), n2 = nodes_per_move(2);
  if (n1 >= 0 || n2 >= 0) {
    auto per_move = [](double n) { return n >= 0 ? format_string("%.0f", n) : std::string("-"); };
    s += "Search per move (network evaluations or nodes): " + name1 + " " + per_move(n1) + ", " + name2 + " " +
         per_move(n2) + "\n";
  }
  if (int r = repeated_games())
    s += format_string("Repeated: %d of %zu games repeat an earlier game move for move (deterministic players from "
                       "the same starts; --openings N varies them)\n",
                       r, games.size());
  if (interrupted) s += "Interrupted: games in progress were dropped; the figures are those of the finished games\n";
  if (sprt.lower != 0 || sprt.upper != 0) s += "SPRT: " + sprt.str() + (sprt_stopped ? " (stopped early)" : "") + "\n";
  return s;
}

namespace {

// Checks the configuration and names the players in out. False with the reason.
bool start_result(const MatchConfig& cfg, MatchResult& out, std::string* error) {
  out = MatchResult();
  if (cfg.games < 1 || cfg.concurrency < 1 || cfg.opening_plies < 0 || cfg.max_plies < 1)
    return *error = "games and concurrency must be >= 1, opening plies >= 0", false;
  for (int s : cfg.setups)
    if (s < 0 || s >= setup_count(cfg.rules)) return *error = "setup index out of range: " + std::to_string(s), false;
  for (auto* spec : {&cfg.player1, &cfg.player2})
    if (!check_player_spec(*spec, error)) return false;
  PlayerSpec s1, s2;
  parse_player_spec(cfg.player1, s1, error);
  parse_player_spec(cfg.player2, s2, error);
  out.name1 = s1.name();
  out.name2 = s2.name();
  if (out.name1 == out.name2) out.name2 += " (2)";  // self-play: keep the sides apart in records
  return true;
}

// A finished game into the counts, the pairs, Elo, LOS and the SPRT; true when the SPRT has decided.
bool tally(const MatchConfig& cfg, const MatchRecord& rec, std::map<int, std::pair<int, double>>& pair_points,
           MatchResult& out) {
  double pts = rec.player1_points();
  (pts == 1 ? out.wdl.w : pts == 0 ? out.wdl.l : out.wdl.d)++;
  auto& pp = pair_points[rec.pair];
  pp.first++, pp.second += pts;
  if (pp.first == 2) out.penta.p[Pentanomial::index(pp.second)]++;
  out.elo_tri = elo_trinomial(out.wdl);
  out.elo_penta = elo_pentanomial(out.penta);
  out.los = likelihood_of_superiority(out.wdl);
  if (!cfg.use_sprt) return false;
  out.sprt = out.penta.n() > 0 ? sprt_pentanomial(out.penta, cfg.sprt) : sprt_trinomial(out.wdl, cfg.sprt);
  return out.sprt.state != SprtState::CONTINUE;
}

}  // namespace

bool run_match(const MatchConfig& cfg, MatchResult& out, std::string* error) {
  if (!start_result(cfg, out, error)) return false;

  int pairs = (cfg.games + 1) / 2;
  std::vector<Opening> openings(static_cast<size_t>(pairs));
  for (int p = 0; p < pairs; ++p) openings[size_t(p)] = make_opening(cfg, p);

  double t0 = now_seconds();
  std::mutex mu;
  std::atomic<int> next{0};
  std::atomic<bool> stop{false};
  std::string first_error;
  std::vector<MatchRecord> done;
  std::map<int, std::pair<int, double>> pair_points;  // pair -> (games done, player1 points)
  double last_write = now_seconds(), last_print = 0;
  bool tty = isatty(2);

  auto finish = [&](MatchRecord&& rec) {
    std::lock_guard<std::mutex> lock(mu);
    if (tally(cfg, rec, pair_points, out) && !stop.exchange(true)) out.sprt_stopped = true;
    done.push_back(std::move(rec));
    double now = now_seconds();
    if (!cfg.records_path.empty() && now - last_write > 10) {
      std::string err;
      if (!write_records(cfg.records_path, done, &err)) JZ_LOG("warning: %s", err.c_str());
      last_write = now;
    }
    if (cfg.progress) {
      std::string line = out.progress_line(cfg.games);
      if (cfg.use_sprt) line += "  " + out.sprt.str();
      if (tty) {
        std::fprintf(stderr, "\r%s\033[K", line.c_str());
      } else if (now - last_print > 5 || int(done.size()) == cfg.games) {
        std::fprintf(stderr, "%s\n", line.c_str());
        last_print = now;
      }
      std::fflush(stderr);
    }
  };

  auto worker = [&] {
    for (;;) {
      if (stop || stop_requested(cfg)) return;
      int i = next++;
      if (i >= cfg.games) return;
      GameSetup g{i, i / 2, i % 2 == 0, &openings[size_t(i / 2)]};
      MatchRecord rec;
      std::string err;
      bool abandoned = false;
      if (!play_game(cfg, out, g, rec, &abandoned, &err)) {
        std::lock_guard<std::mutex> lock(mu);
        if (first_error.empty()) first_error = "game " + std::to_string(i) + ": " + err;
        stop = true;
        return;
      }
      if (abandoned) return;
      finish(std::move(rec));
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::min(cfg.concurrency, cfg.games); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (cfg.progress && tty) std::fprintf(stderr, "\n");

  std::sort(done.begin(), done.end(), [](const MatchRecord& a, const MatchRecord& b) { return a.index < b.index; });
  out.games = std::move(done);
  out.seconds = now_seconds() - t0;
  out.interrupted = stop_requested(cfg) && !out.sprt_stopped && int(out.games.size()) < cfg.games;
  if (!cfg.records_path.empty() && !write_records(cfg.records_path, out.games, error)) return false;
  if (!first_error.empty()) {
    *error = first_error;
    return false;
  }
  return true;
}

}  // namespace jz
