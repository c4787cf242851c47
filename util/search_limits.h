// What a caller allows one search (UCI's `go` parameters and a server's hard caps), for the alpha-beta
// engine and the network search alike, and the one time manager that turns a clock into a plan.
#pragma once
#include <cstdint>

namespace jz {

struct SearchLimits {
  int depth = 0;
  uint64_t nodes = 0;  // alpha-beta nodes, or network playouts
  int movetime_ms = 0;
  int time_ms[2] = {0, 0};  // remaining clock per side, indexed by colour (wtime = Cho, btime = Han)
  int inc_ms[2] = {0, 0};
  int movestogo = 0;
  bool infinite = false;   // run until stopped
  int max_ms = 0;          // hard bound on the search time whatever the rest says (servers); 0 = none
  uint64_t max_nodes = 0;  // same for nodes / playouts: exact where time is only checked now and then
  bool any() const { return depth || nodes || movetime_ms || time_ms[0] || time_ms[1] || infinite; }
  // nodes capped by max_nodes (0 = no bound).
  uint64_t node_bound() const { return max_nodes && (!nodes || nodes > max_nodes) ? max_nodes : nodes; }
};

// 0 = no bound. A search stops at hard_ms; an iterative search starts no iteration it cannot finish
// by soft_ms, and a search that cannot stop between iterations (MCTS) spends soft_ms when it is set.
struct TimePlan {
  int64_t soft_ms = 0;
  int64_t hard_ms = 0;
  int64_t target_ms() const { return soft_ms ? soft_ms : hard_ms; }  // one budget for a search
};

// movetime is a hard bound. A clock (time_ms[side] > 0): a reserve of min(t/10, 100 ms) for overhead,
// soft = t / movestogo (30 when unknown, at most 40) + 3/4 of the increment, never more than half of
// what is left after the reserve unless it is the last move before the time control; hard = 4 x soft
// within what is left. max_ms caps both. `side` is 0 or 1.
TimePlan plan_time(const SearchLimits& l, int side);

}  // namespace jz
