// Compact search tree nodes: the edge array (move, prior) is allocated when a node is expanded;
// children are created lazily, on their first visit, in a list sorted by edge index (lc0 style).
#pragma once
#include <cstdint>

#include "core/types.h"

namespace jz::mcts {

struct Edge {
  Move move;
  float prior;
};

enum class NodeState : uint8_t { UNEXPANDED = 0, EXPANDED, TERMINAL };

struct Node {
  Node* parent = nullptr;
  Node* child = nullptr;    // first created child (lowest edge index)
  Node* sibling = nullptr;  // next created child of the parent (higher edge index)
  Edge* edges = nullptr;    // num_edges entries once expanded
  double q = 0;             // mean value, from the view of the player who moved into this node
  float d = 0;              // mean draw probability
  float m = 0;              // mean material margin, mover's view
  float raw_v = 0;          // network value of this node, side to move's view (Gumbel's mixed value)
  float raw_d = 0;          // network draw probability of this node
  uint32_t n = 0;           // completed visits
  uint16_t in_flight = 0;   // leaves below (or at) this node awaiting evaluation
  uint16_t num_edges = 0;
  uint16_t index = 0;  // edge index in the parent
  NodeState state = NodeState::UNEXPANDED;
  int8_t proven = 0;        // game-theoretic result for the mover: +1 win, -1 loss, 0 unknown (MCTS-solver)
  uint8_t proof_plies = 0;  // plies to the end of the game along the proof (saturates at 255)

  // Mean value, or the proven result once known.
  double value() const { return proven ? double(proven) : q; }

  void add(double v, float dv, float mv) {
    ++n;
    q += (v - q) / n;
    d += (dv - d) / n;
    m += (mv - m) / n;
  }
};

// The child at an edge index, or nullptr if it was never created.
inline const Node* find_child(const Node* node, int index) {
  const Node* c = node->child;
  while (c && c->index < index) c = c->sibling;
  return c && c->index == index ? c : nullptr;
}

// Edge index of the child proven won for node's side to move in the fewest plies, or -1.
inline int shortest_win(const Node* node) {
  int best = -1, plies = 1 << 30;
  if (node->proven >= 0) return -1;
  for (const Node* c = node->child; c; c = c->sibling)
    if (c->proven > 0 && c->proof_plies < plies) plies = c->proof_plies, best = c->index;
  return best;
}

}  // namespace jz::mcts
