#include "arena/results.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "util/fileio.h"

namespace jz {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Keeps file names portable: letters, digits, '-', '_', '.', '=' and nothing else.
std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
              c == '.' || c == '=';
    out += ok ? c : '_';
  }
  if (out.size() > 40) out = out.substr(out.size() - 40);
  return out;
}

json estimate_json(const EloEstimate& e) {
  return {{"elo", e.elo},           {"lo", e.lo},          {"hi", e.hi}, {"score", e.score},
          {"score_se", e.score_se}, {"samples", e.samples}};
}

}  // namespace

bool new_match_stem(const std::string& dir, const MatchResult& r, std::string& stem, std::string* error) {
  if (!make_dirs(dir)) {
    *error = "cannot create directory '" + dir + "'";
    return false;
  }
  char ts[32];
  std::time_t t = std::time(nullptr);
  std::strftime(ts, sizeof ts, "%Y%m%d-%H%M%S", std::localtime(&t));
  std::string base = dir + "/" + ts + "_" + sanitize(r.name1) + "_vs_" + sanitize(r.name2);
  // The stem is claimed by creating its (empty) games file exclusively: matches started in the same
  // second with the same players, as two processes on two cores are, get different stems.
  for (int k = 1;; ++k) {
    stem = k == 1 ? base : base + "_" + std::to_string(k);
    if (fs::exists(stem + ".result.json")) continue;
    int fd = ::open((stem + ".games.jsonl").c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
      ::close(fd);
      return true;
    }
    if (errno != EEXIST) {
      *error = "cannot create '" + stem + ".games.jsonl': " + std::strerror(errno);
      return false;
    }
  }
}

std::string match_result_json(const MatchConfig& cfg, const MatchResult& r, const std::string& records_file) {
  json endings = json::object();
  for (auto& g : r.games) {
    std::string k = std::string(ending_name(g.result.ending)) + (g.result.by_counting ? " (counting)" : "");
    endings[k] = endings.value(k, 0) + 1;
  }
  json j = {{"player1", r.name1},
            {"player2", r.name2},
            {"spec1", cfg.player1},
            {"spec2", cfg.player2},
            {"rules", ruleset_name(cfg.rules)},
            {"games", r.wdl.n()},
            {"wins", r.wdl.w},
            {"draws", r.wdl.d},
            {"losses", r.wdl.l},
            {"score", r.wdl.score()},
            {"pentanomial", {r.penta.p[0], r.penta.p[1], r.penta.p[2], r.penta.p[3], r.penta.p[4]}},
            {"elo_trinomial", estimate_json(r.elo_tri)},
            {"elo_pentanomial", estimate_json(r.elo_penta)},
            {"los", r.los},
            {"endings", endings},
            {"seed", cfg.seed},
            {"opening_plies", cfg.opening_plies},
            {"max_plies", cfg.max_plies},
            {"concurrency", cfg.concurrency},
            {"seconds", r.seconds},
            {"records", records_file}};
  if (cfg.options.any()) j["rule_options"] = rule_options_str(cfg.options);
  if (r.interrupted) j["interrupted"] = {{"planned_games", cfg.games}};
  j["repeated_games"] = r.repeated_games();
  for (int p : {1, 2}) {  // mean network evaluations or nodes per move; absent for players that report none
    double n = r.nodes_per_move(p);
    if (n >= 0) j["nodes_per_move"][p == 1 ? "player1" : "player2"] = std::round(n);
  }
  if (cfg.use_sprt) {
    j["sprt"] = {{"elo0", cfg.sprt.elo0},
                 {"elo1", cfg.sprt.elo1},
                 {"alpha", cfg.sprt.alpha},
                 {"beta", cfg.sprt.beta},
                 {"llr", r.sprt.llr},
                 {"lower", r.sprt.lower},
                 {"upper", r.sprt.upper},
                 {"state", sprt_state_name(r.sprt.state)},
                 {"stopped_early", r.sprt_stopped}};
  }
  return j.dump(2) + "\n";
}

bool write_match_result(const std::string& path, const MatchConfig& cfg, const MatchResult& r,
                        const std::string& records_file, std::string* error) {
  return write_file_atomic(path, match_result_json(cfg, r, records_file), error);
}

bool load_results(const std::string& dir, std::vector<PairResult>& out, int* files, std::string* error, GameKind game,
                  int* other_game) {
  if (other_game) *other_game = 0;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    *error = "no such directory '" + dir + "'";
    return false;
  }
  std::vector<std::string> paths;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    std::string p = it->path().string();
    if (it->is_regular_file() && p.size() > 12 && p.compare(p.size() - 12, 12, ".result.json") == 0) paths.push_back(p);
  }
  if (ec) {
    *error = "cannot list '" + dir + "': " + ec.message();
    return false;
  }
  std::sort(paths.begin(), paths.end());
  for (auto& p : paths) {
    std::string text;
    if (!read_file(p, text, error)) return false;
    try {
      json j = json::parse(text);
      PairResult r;
      r.a = j.at("player1").get<std::string>();
      r.b = j.at("player2").get<std::string>();
      r.w = j.at("wins").get<double>();
      r.d = j.at("draws").get<double>();
      r.l = j.at("losses").get<double>();
      if (r.w < 0 || r.d < 0 || r.l < 0 || r.a.empty() || r.b.empty()) throw std::runtime_error("bad counts or names");
      // Self-play (the same spec on both sides) tells nothing about ratings.
      if (r.a == r.b || j.value("spec1", "") == j.value("spec2", "?")) continue;
      // Players of one name in two games are two players: only the asked game's matches (older files: Janggi).
      Ruleset rules = Ruleset::JANGGI;
      if (!parse_ruleset(j.value("rules", "janggi"), rules)) throw std::runtime_error("unknown rules");
      if (game_of(rules) != game) {
        if (other_game) ++*other_game;
        continue;
      }
      out.push_back(r);
    } catch (const std::exception& e) {
      *error = p + ": bad match result: " + e.what();
      return false;
    }
  }
  if (files) *files = int(paths.size());
  return true;
}

}  // namespace jz
