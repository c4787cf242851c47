#include "training/run_children.h"

#include <vector>

#include "util/fileio.h"
#include "util/log.h"

namespace jz {

namespace {

std::string last_line_of(const std::string& path) {
  std::string text, err;
  if (!read_file(path, text, &err)) return "";
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

}  // namespace

bool RunChildren::start(const TrainRunArgs& a, const RunDir& run, const TrainOptions& o, Ruleset rules,
                        std::string* error) {
  for (const std::string& s : a.overrides) JZ_LOG("train: --set %s (this session only)", s.c_str());
  selfplay_log_ = run.logs() + "/selfplay-local.log";
  if (o.selfplay_threads > 0) {
    // The run's config (selfplay reads its own sections of it) and the same overrides.
    std::vector<std::string> argv = {
        a.self_exe,    "selfplay",     "--config",  run.config(), "--models-dir",
        run.models(),  "--output-dir", run.games(), "--threads",  std::to_string(o.selfplay_threads),
        "--worker-id", "local"};
    for (const std::string& s : a.overrides) argv.insert(argv.end(), {"--set", s});
    if (!selfplay_.start_logged(argv, selfplay_log_, error)) return *error = "cannot start self-play: " + *error, false;
    has_selfplay_ = true;
    JZ_LOG("train: self-play child pid %d, %d threads, log %s", int(selfplay_.pid()), o.selfplay_threads,
           selfplay_log_.c_str());
  }
  eval_log_ = run.logs() + "/gauntlet.log";
  if (!o.eval_opponents.empty()) {
    std::vector<std::string> argv = {a.self_exe,
                                     "gauntlet",
                                     "--run-dir",
                                     run.root,
                                     "--watch",
                                     "--opponents",
                                     o.eval_opponents,
                                     "--games",
                                     std::to_string(o.eval_games),
                                     "--net",
                                     o.eval_net,
                                     "--every",
                                     std::to_string(o.eval_every),
                                     "--concurrency",
                                     std::to_string(o.eval_concurrency),
                                     "--max-plies",
                                     std::to_string(o.eval_max_plies),
                                     "--variant",
                                     ruleset_name(rules)};
    if (!evaluator_.start_logged(argv, eval_log_, error))
      return *error = "cannot start the evaluator: " + *error, false;
    has_evaluator_ = true;
    JZ_LOG("train: evaluator pid %d rates every %lld steps vs %s, log %s", int(evaluator_.pid()),
           (long long)o.eval_every, o.eval_opponents.c_str(), eval_log_.c_str());
  }
  return true;
}

std::string RunChildren::selfplay_ended() {
  if (!has_selfplay_ || selfplay_.alive()) return "";
  return "self-play child ended (" + selfplay_.exit_status() + "): " + last_line_of(selfplay_log_);
}

void RunChildren::watch_evaluator() {
  if (!has_evaluator_ || evaluator_reported_ || evaluator_.alive()) return;
  JZ_LOG("train: evaluator ended (%s): %s", evaluator_.exit_status().c_str(), last_line_of(eval_log_).c_str());
  evaluator_reported_ = true;
}

double RunChildren::selfplay_cpu_seconds() {
  double c = has_selfplay_ ? process_cpu_seconds(selfplay_.pid()) : -1;
  if (c > selfplay_cpu_) selfplay_cpu_ = c;
  return selfplay_cpu_;
}

void RunChildren::stop() {
  selfplay_.stop(10.0);
  evaluator_.stop(5.0);
}

}  // namespace jz
