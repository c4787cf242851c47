// The computer opponents the web page offers, as a Janggi site would: easy, normal, expert (the
// alpha-beta engine, alphabeta/levels.cpp) and net (the trained network, when one is loaded),
// each with a hard bound on the time per move, the ranking points a win earns, and words for the page.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace jz {

struct WebLevel {
  std::string name;    // easy, normal, expert, net
  std::string engine;  // "alpha-beta" or "network"
  int points = 0;      // ranking points for beating it in a ranked game
  int limit_ms = 0;    // hard bound on the engine's time per move (the server never waits longer)
  // The search's own deadline: the limit less a reserve for stopping (alpha-beta reads the clock every
  // 1,024 nodes) and for the work after the search, so that the whole engine call stays within limit_ms.
  int search_ms() const { return limit_ms - (limit_ms / 50 > 20 ? limit_ms / 50 : 20); }
  std::string description;  // one sentence for the page
};

// The levels in the page's order; `net` only when a network is loaded.
std::vector<WebLevel> web_levels(bool with_network);
// nullptr when `name` is not a level (or is `net` without a network).
const WebLevel* find_web_level(const std::string& name, bool with_network);

// The alpha-beta level spec for one game: the named level with the game's seed, so easy's weaker
// moves differ from game to game but replay the same for the same seed ("easy,seed=123").
std::string alphabeta_spec(const std::string& level, uint64_t seed);

// One line on the network's measured strength from its record (models/latest.json): the matches in
// its "strength" list, e.g. "greedy 100% (20 games, 64 sims); alphabeta:depth=1 11% (27 games, 1000 ms)".
// "" when the record is missing or has no strength list.
std::string network_strength_line(const std::string& record_json);

// The levels as the page's /api/info lists them.
nlohmann::json web_levels_json(bool with_network, const std::string& network_id, const std::string& strength);

}  // namespace jz
