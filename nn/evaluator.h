// The one interface between search and networks (lc0's backend shape): a batch of positions in,
// a batch of evaluations out. Implementations must be safe to call from many threads at once.
#pragma once
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/rules.h"

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
  // Rule options the network was trained with (model header key rule_options; none so far). The
  // policy and input encodings know nothing of them, so positions using others are refused.
  virtual RuleOptions rule_options() const { return {}; }
  // The game whose encoding and policy map the network reads and writes (model header key game).
  virtual GameKind game() const { return GameKind::JANGGI; }
};

// False + a one-line reason when pos is another game's or uses a rule option the network was not trained with.
inline bool network_accepts(const Evaluator& net, const Position& pos, std::string* error) {
  if (pos.game() != net.game()) {  // each game has its own policy map
    if (error)
      *error = "network " + net.id() + " plays " + game_name(net.game()) + ", not " + game_name(pos.game()) +
               ": use a " + game_name(pos.game()) + " network or the alpha-beta engine";
    return false;
  }
  RuleOptions extra{uint8_t(pos.options().bits & ~net.rule_options().bits)};
  if (!extra.any()) return true;
  if (error)
    *error = "network " + net.id() + " was trained without rule option " + rule_options_str(extra) +
             ": it cannot play this game (use the alpha-beta engine)";
  return false;
}

}  // namespace jz
