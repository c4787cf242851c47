// The default engine: network or alpha-beta expert, from the network's strength record.
#include "play/default_engine.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <vector>

#include "play/model_path.h"
#include "util/fileio.h"

namespace jz {

using json = nlohmann::json;

namespace {

StrengthVerdict lose(const std::string& reason, const std::string& id = "") {
  StrengthVerdict v;
  v.reason = reason;
  v.network_id = id;
  return v;
}

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

std::string hash_part(const std::string& id) {
  size_t at = id.rfind('@');
  return at == std::string::npos ? id : id.substr(at + 1);
}

}  // namespace

StrengthVerdict judge_strength_record(const std::string& text, const std::string& source) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return lose(source + " is not valid JSON");
  if (!j.is_object()) return lose(source + " is not a JSON object");
  std::string id;
  if (j.contains("network_id")) {
    if (!j["network_id"].is_string()) return lose(source + ": \"network_id\" must be a string");
    id = j["network_id"].get<std::string>();
  }
  const std::string none =
      source + " records no match against " + EXPERT_SPEC + " (\"strength\" entries, see models/README.md)";
  if (!j.contains("strength")) return lose(none, id);
  std::vector<json> entries;
  const json& s = j["strength"];
  if (s.is_object())
    entries.push_back(s);
  else if (s.is_array())
    entries.assign(s.begin(), s.end());
  else
    return lose(source + ": \"strength\" must be a list of match entries", id);

  StrengthVerdict v;
  v.network_id = id;
  int used = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    const json& e = entries[i];
    if (!e.is_object() || !e.contains("vs") || !e["vs"].is_string() || e["vs"].get<std::string>() != EXPERT_SPEC)
      continue;
    const std::string where = source + ": strength entry " + std::to_string(i + 1) + " (vs " + EXPERT_SPEC + "): ";
    if (!e.contains("movetime_ms") || !e["movetime_ms"].is_number_integer() || e["movetime_ms"].get<long long>() <= 0)
      return lose(where + "\"movetime_ms\" (per move, both sides) must be an integer > 0", id);
    if (!e.contains("games") || !e["games"].is_number_integer() || e["games"].get<long long>() <= 0)
      return lose(where + "\"games\" must be an integer > 0", id);
    if (!e.contains("score") || !e["score"].is_number() || !(e["score"].get<double>() >= 0) ||
        !(e["score"].get<double>() <= 1))
      return lose(where + "\"score\" must be a number in [0, 1]", id);
    double score = e["score"].get<double>();
    std::string match = "the network scored " + number(score) + " in " + std::to_string(e["games"].get<long long>()) +
                        " games against " + EXPERT_SPEC + " at " + std::to_string(e["movetime_ms"].get<long long>()) +
                        " ms per move";
    ++used;
    if (!(score > 0.5)) return lose(source + ": " + match + " (the default needs a score above 0.5)", id);
    if (used == 1) v.reason = source + ": " + match;
  }
  if (used == 0) return lose(none, id);
  v.beats_expert = true;
  if (used > 1) v.reason += " (and won all " + std::to_string(used) + " recorded matches against it)";
  return v;
}

StrengthVerdict read_strength_record(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return lose(path + " not found: the network's strength against " + std::string(EXPERT_SPEC) + " is unknown");
  if (!std::filesystem::is_regular_file(path, ec)) return lose("cannot read " + path + ": not a regular file");
  std::string text, err;
  if (!read_file(path, text, &err)) return lose("cannot read " + path + ": " + err);
  return judge_strength_record(text, path);
}

std::string strength_record_path(const std::string& model_path) {
  std::filesystem::path p(model_path);
  if (p.extension() == ".jzn")
    p.replace_extension(".json");
  else
    p += ".json";
  return p.string();
}

DefaultEngine choose_default_engine(const std::string& model_path, GameKind game) {
  DefaultEngine d;
  d.model_path = model_path;
  if (model_path.empty()) {
    d.reason = std::string("no network model found (models/") + default_model_name(game) + ")";
    return d;
  }
  StrengthVerdict v = read_strength_record(strength_record_path(model_path));
  d.network = v.beats_expert;
  d.network_id = v.network_id;
  d.reason = v.reason;
  return d;
}

bool confirm_default_network(DefaultEngine& d, const std::string& loaded_id) {
  if (!d.network || d.network_id.empty() || hash_part(d.network_id) == hash_part(loaded_id)) return d.network;
  d.network = false;
  d.reason = "the strength record is for network " + d.network_id + ", but " + d.model_path + " is " + loaded_id;
  return false;
}

void default_network_failed(DefaultEngine& d, const std::string& error) {
  d.network = false;
  d.reason = "cannot load " + d.model_path + ": " + error;
}

}  // namespace jz
