#include "play/model_path.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace jz {

namespace fs = std::filesystem;

const char* default_model_name(GameKind game) {
  return game == GameKind::XIANGQI ? "xiangqi-latest.jzn" : "latest.jzn";
}

std::vector<std::string> default_model_candidates(GameKind game) {
  std::vector<std::string> out;
  const std::string name = default_model_name(game);
  // The game's variable alone decides when set; "none" (or empty) means no default model.
  if (const char* env = std::getenv(game == GameKind::XIANGQI ? "JZ_MODEL_XIANGQI" : "JZ_MODEL")) {
    std::string v = env;
    if (!v.empty() && v != "none") out.push_back(v);
    return out;
  }
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path dir = exe.parent_path();
    out.push_back((dir / "models" / name).string());
    out.push_back((dir.parent_path() / "models" / name).string());
  }
  out.push_back("models/" + name);
  return out;
}

std::string find_default_model(GameKind game) {
  for (const std::string& p : default_model_candidates(game)) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p;
  }
  return "";
}

}  // namespace jz
