#include "mcts/stub_evaluator.h"

#include <cmath>

namespace jz {

void UniformEvaluator::evaluate(const EvalInput* in, int n, Evaluation* out) {
  for (int i = 0; i < n; ++i) {
    int k = in[i].moves->size;
    out[i].policy.assign(k, k ? 1.0f / k : 0.0f);
    out[i].wdl[0] = 0, out[i].wdl[1] = 1, out[i].wdl[2] = 0;
    out[i].margin = 0;
  }
}

void MaterialEvaluator::evaluate(const EvalInput* in, int n, Evaluation* out) {
  for (int i = 0; i < n; ++i) {
    const Position& pos = *in[i].pos;
    const MoveList& moves = *in[i].moves;
    Color us = pos.side_to_move();
    float margin = float(pos.material(us) - pos.material(~us));
    float counted = margin + (us == HAN ? 1.5f : -1.5f);
    float v = std::tanh(counted / scale_);
    float draw = 0.2f * (1.0f - std::fabs(v));
    Evaluation& e = out[i];
    e.wdl[0] = (1.0f - draw + v) / 2, e.wdl[1] = draw, e.wdl[2] = (1.0f - draw - v) / 2;
    e.margin = margin;
    e.policy.resize(moves.size);
    float sum = 0;
    for (int j = 0; j < moves.size; ++j) {
      float w = 1.0f;
      Move m = moves[j];
      if (capture_bias_ > 0 && !m.is_pass()) {
        Piece p = pos.piece_on(m.to());
        if (p != NO_PIECE) w += capture_bias_ * PIECE_POINTS[type_of(p)] / 13.0f;
      }
      e.policy[j] = w;
      sum += w;
    }
    for (float& p : e.policy) p /= sum;
  }
}

}  // namespace jz
