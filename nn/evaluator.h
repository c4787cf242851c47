// The one interface between search and networks (lc0's backend shape): a batch of positions in,
// a batch of evaluations out. Implementations must be safe to call from many threads at once.
#pragma once
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"

namespace jz {

struct EvalInput {
  const Position* pos;    // with its history (the encoding may use recent moves and rule state)
  const MoveList* moves;  // legal moves of pos, in generate_legal order
};

struct Evaluation {
  std::vector<float> policy;  // probability per legal move, same order as EvalInput::moves, sums to 1
  float wdl[3] = {0, 1, 0};   // win / draw / loss probabilities for the side to move
  float margin = 0;           // expected final material margin (side to move minus opponent, no bonus)
  float value() const { return wdl[0] - wdl[2]; }  // expected score in [-1, 1]
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Evaluates in[0..n) into out[0..n). Blocks until all are done.
  virtual void evaluate(const EvalInput* in, int n, Evaluation* out) = 0;
  // Identifies the network (recorded with every self-play game).
  virtual std::string id() const = 0;
  // Largest batch worth submitting at once (callers gather about this many leaves).
  virtual int preferred_batch() const { return 1; }
};

}  // namespace jz
