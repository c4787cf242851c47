#include "training/run_dir.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "util/fileio.h"

namespace jz {

namespace fs = std::filesystem;

namespace {
std::string numbered(const std::string& dir, const char* prefix, int64_t n, const char* ext) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%08lld%s", prefix, (long long)n, ext);
  return dir + "/" + buf;
}
}  // namespace

std::string RunDir::model_path(int64_t step) const { return numbered(models(), "net-", step, ".jzn"); }
std::string RunDir::checkpoint_path(int64_t step) const {
  return numbered(checkpoints(), "ckpt-", step, CHECKPOINT_EXTENSION);
}

bool RunDir::create(std::string* error) const {
  for (const std::string& d : {root, models(), games(), checkpoints(), metrics(), eval(), logs()}) {
    if (!make_dirs(d)) {
      if (error) *error = "cannot create directory " + d;
      return false;
    }
  }
  return true;
}

std::vector<std::pair<int64_t, std::string>> list_numbered(const std::string& dir, const std::string& prefix,
                                                           const std::string& ext) {
  std::vector<std::pair<int64_t, std::string>> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() + ext.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - ext.size(), ext.size(), ext) != 0)
      continue;
    std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - ext.size());
    if (digits.empty() || digits.size() > 15 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) continue;
    out.push_back({std::stoll(digits), it->path().string()});
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::pair<int64_t, std::string>> list_checkpoints(const std::string& dir) {
  auto all = list_numbered(dir, "ckpt-", CHECKPOINT_EXTENSION);
  auto legacy = list_numbered(dir, "ckpt-", LEGACY_CHECKPOINT_EXTENSION);
  all.insert(all.end(), legacy.begin(), legacy.end());
  std::sort(all.begin(), all.end());
  return all;
}

void prune_checkpoints(const std::string& dir, int keep) {
  auto all = list_checkpoints(dir);
  for (size_t i = 0; i + size_t(keep) < all.size(); ++i) {
    std::error_code ec;
    fs::remove(all[i].second, ec);
  }
}

}  // namespace jz
