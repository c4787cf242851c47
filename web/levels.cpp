#include "web/levels.h"

#include <cstdio>

namespace jz {

using json = nlohmann::json;

std::vector<WebLevel> web_levels(bool with_network) {
  // The alpha-beta limits are AlphaBetaEngine::parse_level's: easy depth 3 / 50 ms with a 25% chance of
  // a weaker move within 150 cp of the best (never one into a forced loss), normal depth 5 / 300 ms,
  // expert iterative deepening under a hard 2 s movetime. limit_ms bounds the whole engine call.
  std::vector<WebLevel> v = {
      {"easy", "alpha-beta", 10, 300,
       "answers at once (3 plies) and about one move in four plays a weaker move on purpose"},
      {"normal", "alpha-beta", 30, 1000, "thinks deeper (5 plies, at most 0.3 s) and makes no deliberate mistakes"},
      {"expert", "alpha-beta", 100, 2000, "searches as deep as it can in 2 s per move, never longer"},
  };
  // The network's points follow its measured strength: its record (models/latest.json, the matches of
  // docs/training/README.md) puts it level with normal at 1 s per move, so a win is worth normal's points.
  if (with_network) v.push_back({"net", "network", 30, 2000, "the trained network (MCTS), at most 2 s per move"});
  return v;
}

const WebLevel* find_web_level(const std::string& name, bool with_network) {
  static const std::vector<WebLevel> all = web_levels(true);
  for (const WebLevel& l : all)
    if (l.name == name && (with_network || l.name != "net")) return &l;
  return nullptr;
}

std::string alphabeta_spec(const std::string& level, uint64_t seed) {
  // parse_level reads the seed as a signed 64-bit integer.
  return level + ",seed=" + std::to_string(seed & 0x7fffffffffffffffULL);
}

std::string network_strength_line(const std::string& record_json) {
  json j = json::parse(record_json, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("strength")) return "";
  json list = j["strength"].is_array() ? j["strength"] : json::array({j["strength"]});
  std::string out;
  for (const json& e : list) {
    if (!e.is_object() || !e.contains("vs") || !e["vs"].is_string() || !e.contains("score") ||
        !e["score"].is_number() || !e.contains("games") || !e["games"].is_number_integer())
      continue;
    char buf[160];
    std::string cond = e.contains("movetime_ms") && e["movetime_ms"].is_number_integer()
                           ? std::to_string(e["movetime_ms"].get<int>()) + " ms per move"
                       : e.contains("sims") && e["sims"].is_number_integer()
                           ? std::to_string(e["sims"].get<int>()) + " simulations"
                           : std::string("");
    std::snprintf(buf, sizeof buf, "%s%.0f%% vs %s (%d games%s%s)", out.empty() ? "" : "; ",
                  e["score"].get<double>() * 100, e["vs"].get<std::string>().c_str(), e["games"].get<int>(),
                  cond.empty() ? "" : ", ", cond.c_str());
    out += buf;
  }
  return out;
}

json web_levels_json(bool with_network, const std::string& network_id, const std::string& strength) {
  json out = json::array();
  for (const WebLevel& l : web_levels(with_network)) {
    json e = {{"name", l.name},
              {"engine", l.engine},
              {"points", l.points},
              {"limit_ms", l.limit_ms},
              {"description", l.description}};
    if (l.name == "net") e["network"] = network_id, e["strength"] = strength;
    out.push_back(e);
  }
  return out;
}

}  // namespace jz
