// Network-free evaluators for tests, benchmarks and bootstrapping. Deterministic and batch-independent.
#pragma once
#include <string>

#include "nn/evaluator.h"

namespace jz {

// Uniform policy, certain draw.
class UniformEvaluator : public Evaluator {
 public:
  void evaluate(const EvalInput* in, int n, Evaluation* out) override;
  std::string id() const override { return "uniform"; }
  int preferred_batch() const override { return 64; }
};

// Value from the material margin (side to move's view, Han's 1.5 bonus included):
// expected score tanh(margin / scale), draw probability shrinking as the margin grows.
// Policy uniform, or (capture_bias > 0) weighted 1 + capture_bias * captured piece points / 13.
class MaterialEvaluator : public Evaluator {
 public:
  explicit MaterialEvaluator(float capture_bias = 0.0f, float scale = 8.0f)
      : capture_bias_(capture_bias), scale_(scale) {}
  void evaluate(const EvalInput* in, int n, Evaluation* out) override;
  std::string id() const override { return "material"; }
  int preferred_batch() const override { return 64; }

 private:
  float capture_bias_, scale_;
};

}  // namespace jz
