#include "cluster/cluster_commands.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "cluster/jobs_file.h"
#include "cluster/run_status.h"
#include "cluster/slurm_cli.h"
#include "util/config.h"
#include "util/fileio.h"

namespace jz {

namespace fs = std::filesystem;

namespace {

bool fail(std::string* error, const std::string& msg) {
  *error = msg;
  return false;
}

std::string absolute_path(const std::string& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  return (ec ? fs::path(p) : a).lexically_normal().string();
}

std::string strip_slash(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

uint64_t now_ms() {
  return uint64_t(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string self_binary() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "" : p.string();
}

// Recorded jobs that squeue still lists. `known` is false when squeue cannot tell.
std::vector<std::string> live_jobs(const JobsFile& f, bool* known) {
  std::vector<QueueEntry> q;
  std::string err;
  *known = squeue_all(&q, &err);
  std::vector<std::string> live;
  for (const JobRecord& r : f.jobs)
    if (!entries_of(q, r.id).empty()) live.push_back(r.id);
  return live;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); i++) s += (i ? sep : "") + v[i];
  return s;
}

// The run's config: RUN/config.yaml, created from --config on first launch. A run keeps its config
// so every job (and a later local `train --resume`) reads the same settings.
bool prepare_config(const std::string& run_dir, const std::string& given, bool dry_run, std::string* path,
                    std::string* error) {
  *path = run_dir + "/config.yaml";
  std::string run_text, given_text;
  bool have_run = fs::exists(*path);
  if (have_run && !read_file(*path, run_text, error)) return false;
  if (given.empty()) {
    if (!have_run) *error = "no --config given and " + *path + " does not exist";
    return have_run;
  }
  if (!read_file(given, given_text, error)) return false;
  Config c;
  if (!c.parse(given_text, given, error)) return false;
  if (have_run) {
    if (run_text != given_text && fs::absolute(given) != fs::absolute(*path)) {
      *error = *path + " exists and differs from " + given + ": the run keeps its config (omit --config, or edit " +
               *path + ")";
      return false;
    }
    return true;
  }
  return dry_run || write_file_atomic(*path, given_text, error);
}

}  // namespace

namespace {

// Absolute paths, the options checked and the run's config checked; outside a dry run the run directory
// and its config.yaml are created.
bool prepare_launch(LaunchRequest& req, std::string* error) {
  LaunchOptions& o = req.opts;
  if (o.run_dir.empty()) return fail(error, "--run-dir is required");
  o.run_dir = strip_slash(absolute_path(o.run_dir));
  o.binary = o.binary.empty() ? self_binary() : absolute_path(o.binary);
  if (!req.config_file.empty()) req.config_file = absolute_path(req.config_file);
  if (!req.config_file.empty() && !fs::is_regular_file(req.config_file))
    return fail(error, "config file " + req.config_file + " not found");
  o.config = o.run_dir + "/config.yaml";
  o.selfplay_config.clear();  // workers read RUN/config.yaml too: each command reads its own sections
  std::string err;
  if (!check_launch_options(o, &err)) return fail(error, err);
  if (!fs::is_regular_file(o.binary) || access(o.binary.c_str(), X_OK) != 0)
    return fail(error, "binary " + o.binary + " is not an executable file");
  if (!req.dry_run && !tool_in_path("sbatch"))
    return fail(error, "sbatch not found in PATH (is Slurm installed on this node?)");
  std::string config_path;
  // Check the config before creating anything, then create the run directory and copy it.
  if (!prepare_config(o.run_dir, req.config_file, true, &config_path, &err)) return fail(error, err);
  if (req.check_config && !req.check_config(req.config_file.empty() ? config_path : req.config_file, o.overrides, &err))
    return fail(error, err);
  if (!req.dry_run && !make_dirs(o.run_dir)) return fail(error, "cannot create run directory " + o.run_dir);
  if (!req.dry_run && !prepare_config(o.run_dir, req.config_file, false, &config_path, &err)) return fail(error, err);
  return true;
}

// The jobs of an earlier launch (none where there was none). Two launches at once would run two w0s:
// refused while recorded jobs are queued or running.
bool check_earlier_launch(const std::string& run_dir, const std::string& jobs_path, JobsFile& previous,
                          std::string* error) {
  std::string err;
  if (!fs::exists(jobs_path)) return true;
  if (!read_jobs_file(jobs_path, previous, &err)) return fail(error, err);
  bool known = false;
  std::vector<std::string> live = live_jobs(previous, &known);
  if (!live.empty())
    return fail(error,
                "jobs " + join(live, ", ") +
                    " of an earlier launch are still queued or running; run `janggi-zero cluster stop --run-dir " +
                    run_dir + "` first");
  return true;
}

// Submits every script, recording its job in jobs; all or nothing: a half-launched run would confuse
// status and stop, so a failure cancels the jobs submitted before it.
bool submit_jobs(const std::vector<JobScript>& scripts, const std::string& slurm_dir, int workers, JobsFile& jobs,
                 std::string* error) {
  std::string err;
  for (const JobScript& s : scripts) {
    JobRecord r;
    r.role = s.role;
    r.script = slurm_dir + "/" + s.filename;
    r.tasks = s.role == "selfplay" ? workers : 1;
    if (!sbatch_submit(r.script, &r.id, &err)) {
      std::vector<std::string> ids;
      for (const JobRecord& j : jobs.jobs) ids.push_back(j.id);
      std::string cerr;
      if (!ids.empty() && !scancel_jobs(ids, &cerr))
        std::fprintf(stderr, "warning: could not cancel jobs %s: %s\n", join(ids, " ").c_str(), cerr.c_str());
      return fail(error, err);
    }
    jobs.jobs.push_back(r);
  }
  return true;
}

void print_launched(const JobsFile& jobs, const std::string& jobs_path) {
  for (const JobRecord& r : jobs.jobs)
    std::printf("%-9s job %s%s\n", r.role.c_str(), r.id.c_str(),
                r.role == "selfplay" ? (" (array 0-" + std::to_string(r.tasks - 1) + ", workers w0..w" +
                                        std::to_string(r.tasks - 1) + ")")
                                           .c_str()
                                     : "");
  std::printf("jobs recorded in %s\n", jobs_path.c_str());
}

}  // namespace

bool cluster_launch(LaunchRequest req, std::string* error) {
  if (!prepare_launch(req, error)) return false;
  const LaunchOptions& o = req.opts;
  const std::string slurm_dir = o.run_dir + "/slurm";
  const std::vector<JobScript> scripts = make_job_scripts(o);
  if (req.dry_run) {
    for (const JobScript& s : scripts)
      std::printf("==> %s/%s (sbatch --parsable %s/%s) <==\n%s\n", slurm_dir.c_str(), s.filename.c_str(),
                  slurm_dir.c_str(), s.filename.c_str(), s.text.c_str());
    std::printf("dry run: nothing written or submitted\n");
    return true;
  }

  JobsFile previous;
  const std::string jobs_path = jobs_file_path(o.run_dir);
  if (!check_earlier_launch(o.run_dir, jobs_path, previous, error)) return false;
  std::string err;
  for (const char* sub : {"/slurm/logs", "/games", "/models", "/eval", "/metrics", "/checkpoints"})
    if (!make_dirs(o.run_dir + sub)) return fail(error, "cannot create " + o.run_dir + sub);
  for (const JobScript& s : scripts)
    if (!write_file_atomic(slurm_dir + "/" + s.filename, s.text, &err)) return fail(error, err);

  JobsFile jobs;
  jobs.launched_at = utc_now();
  jobs.run_dir = o.run_dir;
  jobs.earlier_ids = previous.earlier_ids;
  for (const JobRecord& r : previous.jobs) jobs.earlier_ids.push_back(r.id);
  if (!submit_jobs(scripts, slurm_dir, o.workers, jobs, error)) return false;
  if (!write_jobs_file(jobs_path, jobs, &err)) return fail(error, err + " (jobs were submitted: cancel them by hand)");
  print_launched(jobs, jobs_path);
  return true;
}

bool cluster_stop(const std::string& run_dir_in, double wait_s, std::string* error) {
  if (run_dir_in.empty()) return fail(error, "--run-dir is required");
  const std::string run_dir = strip_slash(absolute_path(run_dir_in));
  JobsFile f;
  std::string err;
  if (!read_jobs_file(jobs_file_path(run_dir), f, &err)) return fail(error, err);
  std::vector<std::string> ids;
  for (const JobRecord& r : f.jobs) ids.push_back(r.id);
  if (!scancel_jobs(ids, &err)) return fail(error, err);
  std::printf("cancelled jobs %s\n", join(ids, " ").c_str());
  // Workers get SIGTERM and flush finished games; waiting lets a script know they are gone.
  for (double waited = 0; wait_s > 0; waited += 0.5) {
    bool known = false;
    std::vector<std::string> live = live_jobs(f, &known);
    if (!known || live.empty()) break;
    if (waited >= wait_s)
      return fail(error, "jobs " + join(live, ", ") + " still listed after " + std::to_string(int(wait_s)) + " s");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  return true;
}

namespace {

// What `cluster status` knows: the recorded jobs, the queue's view of them, the run's progress.
struct RunView {
  std::string run_dir;
  JobsFile jobs;
  bool have_jobs = false, have_queue = false;
  std::vector<QueueEntry> queue;
  std::string queue_error;
  RunProgress progress;
};

nlohmann::json status_json(const RunView& v) {
  const RunProgress& p = v.progress;
  nlohmann::json j;
  j["run_dir"] = v.run_dir;
  j["jobs"] = nlohmann::json::array();
  j["queue_known"] = v.have_queue;
  if (!v.have_queue && v.have_jobs) j["queue_error"] = v.queue_error;
  for (const JobRecord& r : v.jobs.jobs) {
    nlohmann::json jr = {{"role", r.role}, {"id", r.id}, {"tasks", nlohmann::json::array()}};
    for (const QueueEntry& e : entries_of(v.queue, r.id))
      jr["tasks"].push_back({{"id", e.id}, {"state", e.state}, {"elapsed", e.elapsed}, {"reason", e.reason}});
    j["jobs"].push_back(jr);
  }
  j["workers"] = nlohmann::json::array();
  for (const WorkerProgress& w : p.workers)
    j["workers"].push_back({{"worker", w.worker},
                            {"chunks", w.chunks},
                            {"bad_chunks", w.bad_chunks},
                            {"games", w.games},
                            {"positions", w.positions},
                            {"newest_ms", w.newest_ms},
                            {"positions_per_s", w.recent_positions_per_s},
                            {"network", w.network_id}});
  j["games"] = p.games;
  j["positions"] = p.positions;
  j["network"] = {
      {"newest", p.network.newest}, {"step", p.network.step}, {"count", p.network.count}, {"age_s", p.network.age_s}};
  j["trainer"] = {{"present", p.trainer.present},
                  {"step", p.trainer.step},
                  {"samples_per_s", p.trainer.samples_per_s},
                  {"ratio", p.trainer.ratio},
                  {"rows", p.trainer.rows}};
  return j;
}

void print_jobs(const RunView& v) {
  if (!v.have_jobs) {
    std::printf("jobs: none recorded (not launched with `cluster launch`)\n");
    return;
  }
  std::printf("jobs (launched %s)%s\n", v.jobs.launched_at.c_str(), v.have_queue ? "" : (": " + v.queue_error).c_str());
  for (const JobRecord& r : v.jobs.jobs) {
    std::vector<QueueEntry> es = entries_of(v.queue, r.id);
    std::printf("  %-9s %-10s", r.role.c_str(), r.id.c_str());
    if (!v.have_queue)
      std::printf(" state unknown\n");
    else if (es.empty())
      std::printf(" not in queue (finished or cancelled)\n");
    else {
      std::printf("\n");
      for (const QueueEntry& e : es)
        std::printf("    %-14s %-11s %-10s %s\n", e.id.c_str(), e.state.c_str(), e.elapsed.c_str(), e.reason.c_str());
    }
  }
}

void print_progress(const RunProgress& p, uint64_t now) {
  std::printf("self-play (positions/s over the last 10 min):\n");
  if (p.workers.empty()) std::printf("  no workers yet\n");
  for (const WorkerProgress& w : p.workers) {
    std::string age = w.newest_ms ? std::to_string(long((now - std::min(now, w.newest_ms)) / 1000)) + " s ago" : "-";
    std::printf("  %-10s %5d chunks %7llu games %10llu positions %8.1f pos/s  last chunk %s  network %s%s\n",
                w.worker.c_str(), w.chunks, (unsigned long long)w.games, (unsigned long long)w.positions,
                w.recent_positions_per_s, age.c_str(), w.network_id.empty() ? "-" : w.network_id.c_str(),
                w.bad_chunks ? ("  (" + std::to_string(w.bad_chunks) + " unreadable)").c_str() : "");
  }
  std::printf("  total      %7llu games %10llu positions\n", (unsigned long long)p.games,
              (unsigned long long)p.positions);
  if (p.network.count == 0)
    std::printf("network: none yet\n");
  else
    std::printf("network: %s (step %lld, %d networks, written %.0f s ago)\n", p.network.newest.c_str(), p.network.step,
                p.network.count, p.network.age_s);
  if (!p.trainer.present) {
    std::printf("trainer: no metrics yet\n");
  } else {
    std::printf("trainer: step %s", p.trainer.step.empty() ? "?" : p.trainer.step.c_str());
    if (p.trainer.samples_per_s >= 0) std::printf(", %.1f samples/s", p.trainer.samples_per_s);
    // Samples per position: at training.samples_per_position the trainer waits for self-play.
    if (p.trainer.ratio >= 0) std::printf(", %.2f samples per self-play position", p.trainer.ratio);
    std::printf("\n");
  }
}

}  // namespace

bool cluster_status(const std::string& run_dir_in, bool json, bool validate, std::string* error) {
  if (run_dir_in.empty()) return fail(error, "--run-dir is required");
  RunView v;
  v.run_dir = strip_slash(absolute_path(run_dir_in));
  if (!fs::is_directory(v.run_dir)) return fail(error, "run directory " + v.run_dir + " not found");
  std::string jobs_err;
  v.have_jobs = read_jobs_file(jobs_file_path(v.run_dir), v.jobs, &jobs_err);
  if (!v.have_jobs && fs::exists(jobs_file_path(v.run_dir))) return fail(error, jobs_err);
  v.have_queue = v.have_jobs && squeue_all(&v.queue, &v.queue_error);
  const uint64_t now = now_ms();
  v.progress = scan_run(v.run_dir, now, 600, validate);
  if (json) {
    std::printf("%s\n", status_json(v).dump(2).c_str());
    return true;
  }
  std::printf("run %s\n", v.run_dir.c_str());
  print_jobs(v);
  print_progress(v.progress, now);
  return true;
}

}  // namespace jz
