#include "util/search_limits.h"

#include <algorithm>

namespace jz {

TimePlan plan_time(const SearchLimits& l, int side) {
  TimePlan p;
  p.hard_ms = l.movetime_ms > 0 && !l.infinite ? l.movetime_ms : 0;
  if (l.time_ms[side] > 0 && !l.infinite) {
    const int64_t t = l.time_ms[side], inc = std::max(0, l.inc_ms[side]);
    const int mtg = l.movestogo > 0 ? std::min(l.movestogo, 40) : 30;
    const int64_t avail = std::max<int64_t>(1, t - std::min<int64_t>(t / 10, 100));
    int64_t soft = std::min(t / mtg + inc * 3 / 4, mtg == 1 ? avail : std::max<int64_t>(1, avail / 2));
    soft = std::max<int64_t>(1, soft);
    const int64_t hard = mtg == 1 ? avail : std::min(avail, soft * 4);
    p.soft_ms = soft;
    p.hard_ms = p.hard_ms ? std::min(p.hard_ms, hard) : hard;
  }
  if (l.max_ms > 0) {
    p.hard_ms = p.hard_ms ? std::min<int64_t>(p.hard_ms, l.max_ms) : l.max_ms;
    if (p.soft_ms) p.soft_ms = std::min(p.soft_ms, p.hard_ms);
  }
  return p;
}

}  // namespace jz
