#include "play/model_path.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace jz {

namespace fs = std::filesystem;

std::vector<std::string> default_model_candidates() {
  std::vector<std::string> out;
  // $JZ_MODEL alone decides when set; "none" (or empty) means no default model.
  if (const char* env = std::getenv("JZ_MODEL")) {
    std::string v = env;
    if (!v.empty() && v != "none") out.push_back(v);
    return out;
  }
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path dir = exe.parent_path();
    out.push_back((dir / "models" / "latest.jzn").string());
    out.push_back((dir.parent_path() / "models" / "latest.jzn").string());
  }
  out.push_back("models/latest.jzn");
  return out;
}

std::string find_default_model() {
  for (const std::string& p : default_model_candidates()) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p;
  }
  return "";
}

}  // namespace jz
