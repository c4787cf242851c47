// The network on a CUDA device against the CPU (skipped where LibTorch has no CUDA device, as in CI):
// same weights, same positions, the same evaluations within the precision's tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "nn/checkpoint.h"
#include "nn/network_evaluator.h"
#include "nn/torch_compat.h"
#include "positions.h"

using namespace jz;

namespace {

std::vector<Evaluation> evaluate_on(const JanggiNet& model, const std::string& device, const std::string& precision,
                                    std::vector<Position>& pos) {
  NetworkOptions o;
  o.device = device;
  o.precision = precision;
  NetworkEvaluator net(model, o, "test");
  std::vector<MoveList> moves(pos.size());
  std::vector<EvalInput> in;
  for (size_t i = 0; i < pos.size(); ++i) generate_legal(pos[i], moves[i]);
  for (size_t i = 0; i < pos.size(); ++i) in.push_back({&pos[i], &moves[i]});
  std::vector<Evaluation> out(pos.size());
  net.evaluate(in.data(), int(in.size()), out.data());
  return out;
}

double max_policy_diff(const std::vector<Evaluation>& a, const std::vector<Evaluation>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].policy.size(), b[i].policy.size());
    for (size_t j = 0; j < a[i].policy.size() && j < b[i].policy.size(); ++j)
      d = std::max(d, double(std::abs(a[i].policy[j] - b[i].policy[j])));
    for (int k = 0; k < 3; ++k) d = std::max(d, double(std::abs(a[i].wdl[k] - b[i].wdl[k])));
  }
  return d;
}

}  // namespace

TEST(Cuda, MatchesCpu) {
  if (!torch::cuda::is_available()) GTEST_SKIP() << torch_summary();
  std::printf("%s\n", torch_summary().c_str());
  ModelConfig c;
  ASSERT_TRUE(ModelConfig::parse("6x64", c, nullptr));
  torch::manual_seed(11);
  JanggiNet model(c);
  std::vector<Position> pos = test::random_positions(24, 3);
  auto cpu = evaluate_on(model, "cpu", "fp32", pos);
  // fp32 on CUDA uses TF32 convolutions (cuDNN's default): close to the CPU, not equal.
  const double fp32 = max_policy_diff(cpu, evaluate_on(model, "cuda", "fp32", pos));
  const double bf16 = max_policy_diff(cpu, evaluate_on(model, "cuda", "bf16", pos));
  const double dev0 =
      max_policy_diff(evaluate_on(model, "cuda", "fp32", pos), evaluate_on(model, "cuda:0", "fp32", pos));
  std::printf("largest probability difference from the CPU: fp32 %.2g, bf16 %.2g; cuda vs cuda:0 %.2g\n", fp32, bf16,
              dev0);
  EXPECT_LT(fp32, 5e-3);
  EXPECT_LT(bf16, 5e-2);
  EXPECT_LT(dev0, 1e-6);
}

TEST(Cuda, DeviceNames) {
  if (!torch::cuda::is_available()) {
    EXPECT_THROW(parse_device("cuda"), std::runtime_error);
    synchronize_device(torch::Device(torch::kCPU));  // a no-op without CUDA
    return;
  }
  EXPECT_TRUE(parse_device("cuda").is_cuda());
  EXPECT_TRUE(parse_device("auto").is_cuda());
  EXPECT_THROW(parse_device("cuda:" + std::to_string(torch::cuda::device_count())), std::runtime_error);
  synchronize_device(parse_device("cuda"));
}
