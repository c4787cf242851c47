// Builds without LibTorch: model files cannot be loaded (alpha-beta only).
#include "play/engine.h"

namespace jz {

bool play_can_load_models() { return false; }

std::shared_ptr<Evaluator> load_network(const std::string& path, std::string* error) {
  if (error) *error = "this build has no LibTorch: cannot load model '" + path + "'";
  return nullptr;
}

}  // namespace jz
