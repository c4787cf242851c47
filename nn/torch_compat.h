// The one place for what differs between the LibTorch builds this code compiles against: Debian's 1.13
// (CPU only; CI and the CPU machines) and PyTorch's 2.x with CUDA (the GPU machine, docs/gpu.md). Code
// elsewhere calls these instead of version- or CUDA-specific API, so both builds compile the same sources.
#pragma once
#include <torch/torch.h>

#include <string>

namespace jz {

// One line for logs: "LibTorch 2.11.0, CUDA: 1 device(s), cuDNN yes" or "LibTorch 1.13.0, CUDA: none".
std::string torch_summary();

// Waits until the kernels queued on `device` have finished (timing GPU work); a no-op on the CPU.
void synchronize_device(const torch::Device& device);

}  // namespace jz
