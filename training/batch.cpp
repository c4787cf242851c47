#include "training/batch.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/movegen.h"
#include "nn/encoding.h"
#include "nn/model.h"
#include "nn/policy_map.h"
#include "util/random.h"

namespace jz {

void mirror_planes(float* planes) {
  for (int row = 0; row < NUM_PLANES * RANK_NB; ++row)
    std::reverse(planes + row * FILE_NB, planes + (row + 1) * FILE_NB);
}

namespace {

void add_target(const PolicyMap& map, float* row, const std::vector<std::pair<Move, float>>& target, Color mover,
                bool mirror) {
  float sum = 0;
  for (auto& [m, p] : target) sum += p;
  if (!(sum > 0)) return;
  for (auto& [m, p] : target) {
    int i = map.index(m, mover);
    if (i < 0) continue;                          // validated chunks never have one
    row[mirror ? map.mirror(i) : i] += p / sum;  // renormalise away quantisation error
  }
}

}  // namespace

void make_batch(const std::vector<ReplaySample>& s, const std::vector<uint8_t>& mirror, TrainBatch& b,
                float value_q_weight) {
  make_batch(s, mirror, b, std::vector<float>(s.size(), value_q_weight));
}

void make_batch(const std::vector<ReplaySample>& s, const std::vector<uint8_t>& mirror, TrainBatch& b,
                const std::vector<float>& value_q_weights) {
  const int64_t n = int64_t(s.size());
  b.game = n > 0 ? s[0].pos.game() : GameKind::JANGGI;
  const PolicyMap& map = policy_map(b.game);
  const int64_t P = map.size();
  b.size = int(n);
  b.input = torch::zeros({n, NUM_PLANES, RANK_NB, FILE_NB});
  b.legal = torch::zeros({n, P}, torch::kBool);
  b.policy = torch::zeros({n, P});
  b.policy_weight = torch::zeros({n});
  b.wdl = torch::zeros({n, 3});
  b.margin = torch::zeros({n});
  b.opp_policy = torch::zeros({n, P});
  b.opp_weight = torch::zeros({n});
  b.mirrored = torch::zeros({n}, torch::kBool);
  float* in = b.input.data_ptr<float>();
  bool* legal = b.legal.data_ptr<bool>();
  float* pol = b.policy.data_ptr<float>();
  float* pw = b.policy_weight.data_ptr<float>();
  float* wdl = b.wdl.data_ptr<float>();
  float* margin = b.margin.data_ptr<float>();
  float* opp = b.opp_policy.data_ptr<float>();
  float* ow = b.opp_weight.data_ptr<float>();
  bool* mir = b.mirrored.data_ptr<bool>();
  MoveList moves;
  for (int64_t i = 0; i < n; ++i) {
    const ReplaySample& x = s[size_t(i)];
    const bool m = !mirror.empty() && mirror[size_t(i)];
    const Color us = x.pos.side_to_move();
    if (x.pos.game() != b.game)
      throw std::invalid_argument(std::string("a batch mixes games: a ") + game_name(x.pos.game()) + " sample among " +
                                  game_name(b.game) + " ones");
    mir[i] = m;
    float* planes = in + i * INPUT_SIZE;
    encode_position(x.pos, planes);
    if (m) mirror_planes(planes);
    generate_legal(x.pos, moves);
    for (Move mv : moves) {
      int k = map.index(mv, us);
      if (k >= 0) legal[i * P + (m ? map.mirror(k) : k)] = true;
    }
    if (x.full_search && !x.policy.empty()) {
      add_target(map, pol + i * P, x.policy, us, m);
      pw[i] = 1;
    }
    if (x.has_next && !x.next_policy.empty()) {
      add_target(map, opp + i * P, x.next_policy, ~us, m);
      ow[i] = 1;
    }
    // Random opening plies carry no search (their stored WDL is a placeholder draw): result only. A branch
    // has no result: its search's WDL only.
    const float ai = !x.ply_searched ? 0.0f : !x.has_result ? 1.0f : std::clamp(value_q_weights[size_t(i)], 0.0f, 1.0f);
    for (int k = 0; k < 3; ++k) wdl[i * 3 + k] = (1 - ai) * x.result_wdl[k] + ai * x.root_wdl[k];
    margin[i] = float(x.margin) / MARGIN_SCALE;
  }
}

std::mt19937_64 step_rng(uint64_t seed, int64_t step) {
  // Mixed, so neighbouring steps get unrelated streams.
  return std::mt19937_64(mix64((mix64(seed + GOLDEN_GAMMA) ^ uint64_t(step)) + GOLDEN_GAMMA));
}

bool sample_batch(const ReplayBuffer& buffer, uint64_t seed, int64_t step, int n, bool mirror, TrainBatch& out,
                  float value_q_weight) {
  return sample_mixed_batch(buffer, n, value_q_weight, nullptr, 0, 0, seed, step, mirror, out);
}

bool sample_mixed_batch(const ReplayBuffer& main, int n_main, float main_q, const ReplayBuffer* extra, int n_extra,
                        float extra_q, uint64_t seed, int64_t step, bool mirror, TrainBatch& out,
                        bool extra_full_only) {
  std::mt19937_64 rng = step_rng(seed, step);
  std::vector<ReplaySample> samples;
  int got = n_main > 0 ? main.sample(rng, false, n_main, samples) : 0;
  std::vector<float> q(size_t(got), main_q);
  if (extra && n_extra > 0) {
    std::vector<ReplaySample> more;
    int k = extra->sample(rng, extra_full_only, n_extra, more);
    for (int i = 0; i < k; ++i) samples.push_back(std::move(more[size_t(i)]));
    q.resize(samples.size(), extra_q);
  }
  if (samples.empty()) return false;
  std::vector<uint8_t> flip(samples.size(), 0);
  if (mirror)
    for (auto& f : flip) f = uint8_t(rng() & 1);
  make_batch(samples, flip, out, q);
  return true;
}

}  // namespace jz
