#include "training/train_setup.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "nn/bundle_format.h"
#include "training/checkpoint_header.h"

#include "util/config.h"
#include "util/fileio.h"
#include "util/log.h"

namespace jz {

namespace {

// The checkpoint a new run continues (--resume-from): its bytes, step and lineage keys.
struct Lineage {
  std::string bytes, config;
  std::vector<std::string> overrides;
  int64_t step = 0, samples = 0;
};

// The --set lines a checkpoint was trained with (its lineage header key), one per line.
std::vector<std::string> carried_overrides(const CheckpointHeader& h) {
  std::vector<std::string> out;
  for (const auto& [key, value] : h.extra) {
    if (key != LINEAGE_OVERRIDES_KEY) continue;
    std::istringstream lines(value);
    for (std::string line; std::getline(lines, line);)
      if (!line.empty()) out.push_back(line);
  }
  return out;
}

// RUN/lineage.txt: "step N samples M" of the checkpoint --resume-from started the run from.
bool read_lineage_start(const RunDir& run, RunSetup& out, std::string* error) {
  if (!std::filesystem::exists(run.lineage())) return true;
  std::string text;
  if (!read_file(run.lineage(), text, error)) return false;
  std::istringstream is(text);
  std::string k1, k2;
  if (!(is >> k1 >> out.start_step >> k2 >> out.start_samples) || k1 != "step" || k2 != "samples" ||
      out.start_step < 0 || out.start_samples < 0)
    return *error = run.lineage() + ": expected 'step N samples M'", false;
  return true;
}

bool read_lineage(const TrainRunArgs& a, const RunDir& run, Lineage& out, std::string* error) {
  const std::string& path = a.resume_from;
  if (!a.init_from.empty()) return *error = "--resume-from and --init-from exclude each other", false;
  if (!list_checkpoints(run.checkpoints()).empty())
    return *error = run.root + " already has checkpoints: resume it with --run-dir alone, or give a new run directory",
           false;
  if (!read_file(path, out.bytes, error)) return *error = "--resume-from " + path + ": " + *error, false;
  try {
    CheckpointHeader h = check_checkpoint_header(parse_bundle(out.bytes, path).header, path);
    out.step = h.step;
    out.samples = h.samples;
    for (const auto& [key, value] : h.extra)
      if (key == LINEAGE_CONFIG_KEY) out.config = value;
    out.overrides = carried_overrides(h);
  } catch (const std::exception& e) {
    return *error = e.what(), false;
  }
  if (out.config.empty() && a.config.empty())
    return *error = path + " carries no config (a checkpoint from before lineages): give --config", false;
  return true;
}

// The run's config text: the given file, which must agree with the run's copy if there is one; else the
// run's copy, else the config a resumed lineage carries.
bool reconcile_config(const TrainRunArgs& a, const RunDir& run, const std::string& carried, std::string& text,
                      bool& have_copy, std::string* error) {
  std::string existing;
  have_copy = std::filesystem::exists(run.config());
  if (have_copy && !read_file(run.config(), existing, error)) return false;
  if (!a.config.empty()) {
    if (!read_file(a.config, text, error)) return *error = "cannot read config " + a.config + ": " + *error, false;
    if (have_copy && text != existing)
      return *error =
                 run.config() + " differs from " + a.config + ": resume without --config, or start a new run directory",
             false;
    return true;
  }
  if (!have_copy && !carried.empty()) return text = carried, true;
  if (!have_copy) return *error = "no --config given and " + run.config() + " does not exist", false;
  text = existing;
  return true;
}

// --set lines are this session's only: a run resumed in place without the ones its newest checkpoint was
// trained with changes recipe silently, so say which are gone.
void note_dropped_overrides(const RunDir& run, const std::vector<std::string>& given) {
  auto ckpts = list_checkpoints(run.checkpoints());
  std::string bytes, err;
  if (ckpts.empty() || !read_file(ckpts.back().second, bytes, &err)) return;
  try {
    CheckpointHeader h = check_checkpoint_header(parse_bundle(bytes, ckpts.back().second).header, ckpts.back().second);
    std::string dropped;
    for (const std::string& line : carried_overrides(h))
      if (std::find(given.begin(), given.end(), line) == given.end()) dropped += " --set " + line;
    if (!dropped.empty())
      JZ_LOG("train: note: %s was trained with%s; this session does not set them (repeat them to keep them)",
             ckpts.back().second.c_str(), dropped.c_str());
  } catch (const std::exception&) {
    // open_trainer reports an unreadable checkpoint
  }
}

}  // namespace

bool setup_run(const TrainRunArgs& a, RunSetup& out, std::string* error) {
  if (a.run_dir.empty()) return *error = "--run-dir is required", false;
  if (a.steps < 0 || a.hours < 0 || a.cpu_hours < 0)
    return *error = "--steps, --hours and --cpu-hours must not be negative", false;
  out.run = RunDir(a.run_dir);
  Lineage lineage;
  if (!a.resume_from.empty() && !read_lineage(a, out.run, lineage, error)) return false;
  if (a.resume_from.empty()) note_dropped_overrides(out.run, a.overrides);
  std::string text;
  bool have_copy = false;
  if (!reconcile_config(a, out.run, lineage.config, text, have_copy, error)) return false;
  Config cfg;
  if (!cfg.parse(text, a.config.empty() ? out.run.config() : a.config, error)) return false;
  // The lineage's own --set lines first (they made its checkpoints), then this session's.
  std::vector<std::string> overrides = lineage.overrides;
  overrides.insert(overrides.end(), a.overrides.begin(), a.overrides.end());
  for (const std::string& s : overrides)
    if (!cfg.set_override(s, error)) return false;
  std::string joined;
  for (const std::string& s : overrides) joined += s + "\n";
  out.lineage = {{LINEAGE_CONFIG_KEY, text}, {LINEAGE_OVERRIDES_KEY, joined}};
  if (!load_selfplay_options(cfg, out.selfplay, error) || !load_train_options(cfg, out.options, error) ||
      !cfg.check_sections(config_sections_of("train"), error))
    return false;
  if (a.selfplay_threads >= 0) out.options.selfplay_threads = a.selfplay_threads;
  if (a.trainer_only) out.options.selfplay_threads = 0;
  if (!ModelConfig::parse(out.options.model, out.model, error)) return false;
  out.model.game = game_of(out.selfplay.ruleset);  // the network plays the game its self-play plays
  out.init_from = a.init_from;
  if (!a.init_from.empty() && !std::filesystem::exists(a.init_from))
    return *error = "--init-from " + a.init_from + " does not exist", false;
  // Every check before the run directory is written: a refused --resume-from into a new directory must
  // leave nothing there, or its retry is refused as a run with checkpoints. A missing folder is a mistake;
  // an empty one is a teacher that has not written yet (its chunks are taken as they appear).
  std::error_code ec;
  if (!out.options.extra_data.empty() && !std::filesystem::is_directory(out.options.extra_data, ec))
    return *error = "training.extra_data '" + out.options.extra_data + "' is not a folder", false;
  if (!out.run.create(error) || !(have_copy || write_file_atomic(out.run.config(), text, error))) return false;
  if (!lineage.bytes.empty() &&
      (!write_file_atomic(out.run.lineage(),
                          format_string("step %lld samples %lld\n", (long long)lineage.step, (long long)lineage.samples),
                          error) ||
       !write_file_atomic(out.run.checkpoint_path(lineage.step), lineage.bytes, error)))
    return false;
  return read_lineage_start(out.run, out, error);
}

std::unique_ptr<Trainer> open_trainer(const RunSetup& s, std::string* network) {
  auto t = std::make_unique<Trainer>(s.options, s.model);
  auto ckpts = list_checkpoints(s.run.checkpoints());
  if (!ckpts.empty()) {
    try {
      t->load_checkpoint(ckpts.back().second);
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string(e.what()) + " (remove it to resume from an older checkpoint)");
    }
    JZ_LOG("train: resumed from %s at step %lld", ckpts.back().second.c_str(), (long long)t->step());
  } else {
    if (!s.init_from.empty()) t->load_weights(s.init_from);
    JZ_LOG("train: new run in %s: %s network (%lld parameters)%s, %s, batch %d", s.run.root.c_str(),
           s.model.name().c_str(), (long long)parameter_count(t->model()),
           s.init_from.empty() ? "" : (", weights from " + s.init_from).c_str(), s.options.optimizer.c_str(),
           s.options.batch_size);
  }
  auto models = list_numbered(s.run.models(), "net-", ".jzn");
  int64_t step = t->step();
  if (models.empty() || models.back().first < step)
    t->export_model(s.run.model_path(step), "trainer");
  else
    step = models.back().first;
  *network = format_string("net-%08lld", (long long)step);
  return t;
}

}  // namespace jz
