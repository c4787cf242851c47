// Placeholder until `janggi-zero tune` writes the tuned table: the hand-set weights.
#include "arena/alphabeta/eval_terms.h"

namespace jz::ab {

const EvalWeights& tuned_weights() {
  static const EvalWeights w = hand_weights();
  return w;
}

}  // namespace jz::ab
