// Talking to Slurm through its command-line tools (sbatch, squeue, scancel), found in PATH, so a
// test can put stand-ins first in PATH. No Slurm library is linked.
#pragma once
#include <string>
#include <vector>

namespace jz {

// Runs argv (argv[0] searched in PATH) and collects its stdout and stderr. Returns the exit code,
// 127 if the program cannot be started, 128 + n if a signal n ended it.
int run_command(const std::vector<std::string>& argv, std::string* out, std::string* err);
// True if `tool` is an executable file in PATH.
bool tool_in_path(const std::string& tool);

// `sbatch --parsable script`: the job id. False with sbatch's own message on failure.
bool sbatch_submit(const std::string& script, std::string* job_id, std::string* error);
// The id in `sbatch --parsable` output ("123" or "123;cluster"); empty if it is not one.
std::string parse_sbatch_output(const std::string& out);

struct QueueEntry {
  std::string id;     // "123", or "123_4" for an array task ("123_[5-9]" for pending ones)
  std::string state;  // PENDING, RUNNING, COMPLETING, ...
  std::string elapsed;
  std::string reason;  // nodes when running, the reason when pending
};
// Every job squeue shows. False with a reason if squeue is missing or fails.
bool squeue_all(std::vector<QueueEntry>* out, std::string* error);
std::vector<QueueEntry> parse_squeue_output(const std::string& out);
// The entries that belong to job `id` (the job itself or its array tasks).
std::vector<QueueEntry> entries_of(const std::vector<QueueEntry>& all, const std::string& id);
// scancel ids. False with a reason on failure.
bool scancel_jobs(const std::vector<std::string>& ids, std::string* error);

}  // namespace jz
