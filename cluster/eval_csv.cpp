#include "cluster/eval_csv.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "cluster/run_status.h"
#include "util/fileio.h"

namespace jz {

namespace {

std::string csv_field(std::string s) {
  for (char& c : s)
    if (c == ',' || c == '\n' || c == '\r' || c == '"') c = ' ';
  return s;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

}  // namespace

bool append_eval_row(const std::string& result_path, const std::string& network, const std::string& opponent,
                     const std::string& csv_path, std::string* error) {
  std::string text, err;
  if (!read_file(result_path, text, &err)) {
    *error = err;
    return false;
  }
  std::string row;
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    // The pentanomial estimate once there are game pairs (it accounts for the shared openings).
    const nlohmann::json& penta = j.at("elo_pentanomial");
    const nlohmann::json& e = penta.value("samples", 0.0) > 0 ? penta : j.at("elo_trinomial");
    long long step = network_step(network + ".jzn");
    row = csv_field(network) + "," + (step >= 0 ? std::to_string(step) : "") + "," +
          std::to_string(j.at("games").get<long long>()) + "," + csv_field(opponent) + "," +
          num(j.at("score").get<double>()) + "," + num(e.at("elo").get<double>()) + "," +
          num(e.at("lo").get<double>()) + "," + num(e.at("hi").get<double>()) + "\n";
  } catch (const std::exception& ex) {
    *error = result_path + ": not a match result (" + ex.what() + ")";
    return false;
  }
  std::string csv;
  if (!read_file(csv_path, csv, nullptr) || csv.empty()) csv = "network,step,games,opponent,score,elo,elo_lo,elo_hi\n";
  if (csv.back() != '\n') csv += "\n";
  return write_file_atomic(csv_path, csv + row, error);
}

}  // namespace jz
