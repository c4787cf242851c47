// Reads the reference test vectors (tab-separated, header line first).
#pragma once
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace jz::test {

inline std::vector<std::vector<std::string>> read_tsv(const std::string& name) {
  std::ifstream in(std::string(JZ_TEST_DATA) + "/" + name);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) {
      header = false;
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, '\t')) cols.push_back(col);
    rows.push_back(cols);
  }
  return rows;
}

}  // namespace jz::test
