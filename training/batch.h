// Training batches: replay samples -> dense tensors (inputs, masked policy targets, WDL, margin,
// opponent-reply targets), with the left-right mirror augmentation applied to the encoded planes
// and the policy indices (the rules and the encoding are mirror symmetric).
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <random>
#include <vector>

#include "replay/replay_buffer.h"

namespace jz {

struct TrainBatch {
  int size = 0;
  GameKind game = GameKind::JANGGI;  // of every sample (a batch holds one game)
  torch::Tensor input;          // [N, NUM_PLANES, 10, 9]
  torch::Tensor legal;          // [N, P] bool: legal moves of the side to move (P = policy_map(game).size())
  torch::Tensor policy;         // [N, P] search target (rows without one are all 0)
  torch::Tensor policy_weight;  // [N] 1 where the ply was a full search with a target
  torch::Tensor wdl;            // [N, 3] game result (blended with the root search WDL), side to move's view
  torch::Tensor margin;         // [N] final material margin / MARGIN_SCALE, side to move's view
  torch::Tensor opp_policy;     // [N, P] opponent reply target, opponent's view
  torch::Tensor opp_weight;     // [N] 1 where that target exists
  torch::Tensor mirrored;       // [N] bool (for tests and diagnostics)
};

// Mirrors encoded planes (INPUT_SIZE floats) file a <-> i, in place.
void mirror_planes(float* planes);

// Builds a batch; mirror[i] says whether sample i is mirrored (empty = none). Samples of two games in one
// batch throw std::invalid_argument.
// value_q_weight a blends the value target: (1 - a) * game result + a * the search's root WDL.
void make_batch(const std::vector<ReplaySample>& samples, const std::vector<uint8_t>& mirror, TrainBatch& out,
                float value_q_weight = 0.0f);
// Same with a value blend per sample.
void make_batch(const std::vector<ReplaySample>& samples, const std::vector<uint8_t>& mirror, TrainBatch& out,
                const std::vector<float>& value_q_weights);

// Draws a batch for a training step: the RNG is seeded by (seed, step) alone, so a resumed run
// draws the same batch from the same data. Returns false if the buffer is empty.
bool sample_batch(const ReplayBuffer& buffer, uint64_t seed, int64_t step, int n, bool mirror, TrainBatch& out,
                  float value_q_weight = 0.0f);

// A batch of n_main samples from `main` (value blend main_q) followed by n_extra from `extra`
// (extra_q): teacher or imported data mixed into self-play batches, from searched plies only with
// extra_full_only. Drawn like sample_batch, which is this with no extra part.
bool sample_mixed_batch(const ReplayBuffer& main, int n_main, float main_q, const ReplayBuffer* extra, int n_extra,
                        float extra_q, uint64_t seed, int64_t step, bool mirror, TrainBatch& out,
                        bool extra_full_only = false);

// The RNG for (seed, stream index).
std::mt19937_64 step_rng(uint64_t seed, int64_t step);

}  // namespace jz
