// RUN/slurm/jobs.json: the Slurm jobs of the current launch (and the ids of earlier launches), so
// `cluster status` and `cluster stop` find them. Written atomically.
#pragma once
#include <string>
#include <vector>

namespace jz {

struct JobRecord {
  std::string role;    // selfplay, trainer, evaluator
  std::string id;      // Slurm job id (the array's id for self-play)
  std::string script;  // batch script path
  int tasks = 1;       // array size for self-play
};

struct JobsFile {
  std::string launched_at;  // ISO 8601 UTC
  std::string run_dir;
  std::vector<JobRecord> jobs;
  std::vector<std::string> earlier_ids;  // job ids of earlier launches, oldest first
};

std::string jobs_file_path(const std::string& run_dir);
std::string jobs_to_json(const JobsFile& f);
bool jobs_from_json(const std::string& text, JobsFile& f, std::string* error);
bool write_jobs_file(const std::string& path, const JobsFile& f, std::string* error);
// False if missing or malformed (*error says which).
bool read_jobs_file(const std::string& path, JobsFile& f, std::string* error);

}  // namespace jz
