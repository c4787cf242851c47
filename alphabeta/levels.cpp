// Named strength levels and "key=value" overrides for the alpha-beta engine.
#include <sstream>
#include <stdexcept>

#include "alphabeta/engine.h"

namespace jz {

bool AlphaBetaEngine::parse_level(const std::string& spec, AbLimits& out, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = "bad alpha-beta level '" + spec + "': " + why;
    return false;
  };
  AbLimits l;
  std::stringstream ss(spec);
  std::string item;
  bool any = false;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    any = true;
    if (item == "easy") {
      // Shallow, and about one move in four a weaker (but not losing) one on purpose.
      l.depth = 3, l.movetime_ms = 50, l.blunder_pct = 25, l.blunder_margin_cp = 150;
    } else if (item == "normal") {
      l.depth = 5, l.movetime_ms = 300, l.blunder_pct = 0;
    } else if (item == "expert") {
      l.depth = 0, l.movetime_ms = 2000, l.blunder_pct = 0;
    } else {
      size_t eq = item.find('=');
      if (eq == std::string::npos) return fail("unknown level '" + item + "' (easy, normal, expert, key=value)");
      std::string k = item.substr(0, eq), v = item.substr(eq + 1);
      long long n;
      try {
        size_t used;
        n = std::stoll(v, &used);
        if (used != v.size()) throw std::invalid_argument(v);
      } catch (...) {
        return fail("'" + k + "' needs an integer, got '" + v + "'");
      }
      if (n < 0) return fail("'" + k + "' must not be negative");
      if (k == "depth" && n <= MAX_DEPTH)
        l.depth = int(n);
      else if (k == "nodes")
        l.nodes = uint64_t(n);
      else if (k == "movetime" && n <= 86400000)
        l.movetime_ms = int(n);
      else if (k == "blunder" && n <= 100)
        l.blunder_pct = int(n);
      else if (k == "margin" && n <= 10000)
        l.blunder_margin_cp = int(n);
      else if (k == "seed")
        l.seed = uint64_t(n);
      else if (k == "version" && n >= 1 && n <= 2)
        l.version = int(n);
      else if (k == "features" && n <= AB_ALL_FEATURES)
        l.features = int(n);
      else if (k == "depth" || k == "movetime" || k == "blunder" || k == "margin" || k == "version" || k == "features")
        return fail("'" + k + "' out of range");
      else
        return fail("unknown key '" + k + "' (depth, nodes, movetime, blunder, margin, seed, version, features)");
    }
  }
  if (!any) return fail("empty");
  out = l;
  return true;
}

AbLimits AlphaBetaEngine::level(const std::string& spec) {
  AbLimits l;
  std::string err;
  if (!parse_level(spec, l, &err)) throw std::invalid_argument(err);
  return l;
}

}  // namespace jz
