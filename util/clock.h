// The one clock: seconds on the steady clock since an arbitrary fixed point. Header-only so that
// core/ and mcts/ can time searches without linking util.
#pragma once
#include <chrono>

namespace jz {

inline double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace jz
