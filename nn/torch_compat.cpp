#include "nn/torch_compat.h"

#include <torch/version.h>

namespace jz {

std::string torch_summary() {
  std::string s = "LibTorch " + std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
                  std::to_string(TORCH_VERSION_PATCH) + ", CUDA: ";
  if (!torch::cuda::is_available()) return s + "none";
  return s + std::to_string(torch::cuda::device_count()) + " device(s), cuDNN " +
         (torch::cuda::cudnn_is_available() ? "yes" : "no");
}

void synchronize_device(const torch::Device& device) {
  // torch::cuda::synchronize is in both 1.13 and 2.x (torch/cuda.h); it throws on a build without CUDA,
  // which a CUDA device cannot come from.
  if (device.is_cuda()) torch::cuda::synchronize(device.index());
}

}  // namespace jz
