#include "cluster/jobs_file.h"

#include <nlohmann/json.hpp>

#include "util/fileio.h"

namespace jz {

std::string jobs_file_path(const std::string& run_dir) { return run_dir + "/slurm/jobs.json"; }

std::string jobs_to_json(const JobsFile& f) {
  nlohmann::json j;
  j["launched_at"] = f.launched_at;
  j["run_dir"] = f.run_dir;
  j["jobs"] = nlohmann::json::array();
  for (const JobRecord& r : f.jobs)
    j["jobs"].push_back({{"role", r.role}, {"id", r.id}, {"script", r.script}, {"tasks", r.tasks}});
  j["earlier_ids"] = f.earlier_ids;
  return j.dump(2) + "\n";
}

bool jobs_from_json(const std::string& text, JobsFile& f, std::string* error) {
  f = JobsFile{};
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    f.launched_at = j.value("launched_at", "");
    f.run_dir = j.value("run_dir", "");
    for (const auto& r : j.at("jobs")) {
      JobRecord rec;
      rec.role = r.at("role").get<std::string>();
      rec.id = r.at("id").get<std::string>();
      rec.script = r.value("script", "");
      rec.tasks = r.value("tasks", 1);
      if (rec.id.empty() || rec.id.find_first_not_of("0123456789") != std::string::npos)
        throw std::runtime_error("job id '" + rec.id + "' is not a number");
      f.jobs.push_back(rec);
    }
    if (j.contains("earlier_ids")) f.earlier_ids = j["earlier_ids"].get<std::vector<std::string>>();
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
  return true;
}

bool write_jobs_file(const std::string& path, const JobsFile& f, std::string* error) {
  return write_file_atomic(path, jobs_to_json(f), error);
}

bool read_jobs_file(const std::string& path, JobsFile& f, std::string* error) {
  std::string text, err;
  if (!read_file(path, text, &err)) {
    *error = err;
    return false;
  }
  if (!jobs_from_json(text, f, &err)) {
    *error = path + " is malformed: " + err;
    return false;
  }
  return true;
}

}  // namespace jz
