#include "arena/gauntlet.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

#include "arena/match.h"
#include "arena/player.h"
#include "arena/results.h"
#include "util/fileio.h"
#include "util/log.h"

namespace jz {

namespace {

namespace fs = std::filesystem;

const char* EVAL_HEADER = "network,step,games,opponent,score,elo,elo_lo,elo_hi\n";

// Marker and CSV names must be one path component and one CSV field.
std::string safe_name(std::string s) {
  for (char& c : s)
    if (!(std::isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.' || c == '=' || c == ':')) c = '_';
  return s;
}

std::string opponent_name(const std::string& spec) {
  PlayerSpec s;
  std::string err;
  return parse_player_spec(spec, s, &err) ? s.name() : spec;
}

std::string marker(const GauntletOptions& o, const std::string& network, const std::string& opponent) {
  return o.eval_dir + "/done/" + network + "@" + safe_name(opponent_name(opponent));
}

// "net-<digits>.jzn" -> step, else -1.
int64_t step_of(const std::string& file) {
  const std::string pre = "net-", ext = ".jzn";
  if (file.size() <= pre.size() + ext.size() || file.rfind(pre, 0) != 0 ||
      file.compare(file.size() - ext.size(), ext.size(), ext) != 0)
    return -1;
  std::string digits = file.substr(pre.size(), file.size() - pre.size() - ext.size());
  if (digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stoll(digits);
}

bool append_row(const std::string& csv_path, const std::string& network, int64_t step, const std::string& opponent,
                const MatchResult& r, std::string* error) {
  std::string csv;
  if (!read_file(csv_path, csv, nullptr) || csv.empty()) csv = EVAL_HEADER;
  if (csv.back() != '\n') csv += "\n";
  const EloEstimate& e = r.elo();
  csv += network + "," + std::to_string(step) + "," + std::to_string(r.wdl.n()) + "," + safe_name(opponent) + "," +
         format_string("%.4g,%.4g,%.4g,%.4g\n", r.wdl.score(), e.elo, e.lo, e.hi);
  return write_file_atomic(csv_path, csv, error);
}

}  // namespace

std::vector<std::string> split_opponents(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(';', start);
    if (end == std::string::npos) end = list.size();
    std::string item = list.substr(start, end - start);
    size_t a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
    if (a != std::string::npos) out.push_back(item.substr(a, b - a + 1));
    start = end + 1;
  }
  return out;
}

bool check_gauntlet(const GauntletOptions& o, std::string* error) {
  if (o.models_dir.empty() || o.eval_dir.empty()) return *error = "models and eval directories are required", false;
  if (o.opponents.empty()) return *error = "no opponents given", false;
  if (o.games < 1 || o.concurrency < 1 || o.max_plies < 1 || o.opening_plies < 0 || o.every < 0)
    return *error = "games, concurrency and max plies must be >= 1, opening plies and every >= 0", false;
  for (const std::string& spec : o.opponents)
    if (!check_player_spec(spec, error)) return false;
  // The rated network's options, checked on a stand-in path (the spec checker wants the file to exist).
  PlayerSpec s;
  if (!parse_player_spec("net:x," + o.net_options, s, error)) return false;
  for (auto& [k, v] : s.options)
    if (k != "sims" && k != "movetime" && k != "batch" && k != "device" && k != "precision")
      return *error = "network options: unknown key '" + k + "' (sims, movetime, batch, device, precision)", false;
  return true;
}

std::vector<std::pair<int64_t, std::string>> exported_networks(const std::string& models_dir) {
  std::vector<std::pair<int64_t, std::string>> nets;
  std::error_code ec;
  for (fs::directory_iterator it(models_dir, ec), end; !ec && it != end; it.increment(ec)) {
    int64_t step = step_of(it->path().filename().string());
    if (step >= 0) nets.emplace_back(step, it->path().string());
  }
  std::sort(nets.begin(), nets.end());
  return nets;
}

std::vector<int64_t> steps_at_marks(const std::vector<double>& marks, const std::vector<double>& steps,
                                    const std::vector<double>& measure, const std::vector<int64_t>& nets) {
  std::vector<int64_t> out;
  for (double mark : marks) {
    size_t i = 0;
    while (i < measure.size() && !(measure[i] >= mark)) ++i;
    if (i == measure.size()) continue;
    int64_t best = -1;
    for (int64_t n : nets)
      if (double(n) <= steps[i]) best = std::max(best, n);
    if (best >= 0 && std::find(out.begin(), out.end(), best) == out.end()) out.push_back(best);
  }
  return out;
}

std::vector<std::pair<int64_t, std::string>> gauntlet_pending(const GauntletOptions& o) {
  std::vector<std::pair<int64_t, std::string>> nets = exported_networks(o.models_dir);
  std::reverse(nets.begin(), nets.end());
  std::vector<std::pair<int64_t, std::string>> out;
  for (size_t i = 0; i < nets.size(); ++i) {
    bool wanted = o.every <= 0 || nets[i].first % o.every == 0 || (o.latest && i == 0);
    if (!o.steps.empty()) wanted = std::find(o.steps.begin(), o.steps.end(), nets[i].first) != o.steps.end();
    if (!wanted) continue;
    std::string name = fs::path(nets[i].second).stem().string();
    for (const std::string& opp : o.opponents)
      if (!fs::exists(marker(o, name, opp))) {
        out.push_back(nets[i]);
        break;
      }
  }
  return out;
}

int gauntlet_step(const GauntletOptions& o, const std::function<void(const std::string&)>& log, std::string* error) {
  auto pending = gauntlet_pending(o);
  if (pending.empty()) return 0;
  const auto& [step, path] = pending.front();
  const std::string network = fs::path(path).stem().string();
  if (!make_dirs(o.eval_dir + "/done")) return *error = "cannot create " + o.eval_dir + "/done", -1;
  int played = 0;
  for (size_t k = 0; k < o.opponents.size(); ++k) {
    const std::string& opp = o.opponents[k];
    const std::string done = marker(o, network, opp);
    if (fs::exists(done)) continue;
    MatchConfig cfg;
    cfg.player1 = "net:" + path + "," + o.net_options + ",name=" + network;
    cfg.player2 = opp;
    cfg.games = o.games;
    cfg.concurrency = o.concurrency;
    cfg.rules = o.rules;
    cfg.opening_plies = o.opening_plies;
    cfg.max_plies = o.max_plies;
    cfg.seed = o.seed + 7919 * k;  // per opponent, not per network: every network meets the same openings
    cfg.progress = o.progress;
    MatchResult r;
    PlayerSpec s1, s2;
    if (!parse_player_spec(cfg.player1, s1, error) || !parse_player_spec(cfg.player2, s2, error)) return -1;
    r.name1 = s1.name(), r.name2 = s2.name();
    std::string stem;
    if (!new_match_stem(o.eval_dir + "/store", r, stem, error)) return -1;
    cfg.records_path = stem + ".games.jsonl";
    if (!run_match(cfg, r, error)) return -1;
    if (!write_match_result(stem + ".result.json", cfg, r, cfg.records_path, error)) return -1;
    if (!append_row(o.eval_dir + "/gauntlet.csv", network, step, r.name2, r, error)) return -1;
    if (!write_file_atomic(done, stem + ".result.json\n", error)) return -1;
    const EloEstimate& e = r.elo();
    log(format_string("%s vs %s: +%d =%d -%d, score %.3f, Elo %+.0f [%+.0f, %+.0f], %.0f s", network.c_str(),
                      r.name2.c_str(), int(r.wdl.w), int(r.wdl.d), int(r.wdl.l), r.wdl.score(), e.elo, e.lo, e.hi,
                      r.seconds));
    ++played;
  }
  return played;
}

}  // namespace jz
