#include "training/csv_log.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "util/fileio.h"

namespace jz {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + v[i];
  return s;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

}  // namespace

CsvLog::CsvLog(std::string path, std::vector<std::string> columns, int64_t keep_up_to)
    : path_(std::move(path)), columns_(std::move(columns)) {
  CsvTable old;
  std::string err;
  if (!std::filesystem::exists(path_) || !read_csv(path_, old, &err)) return;
  const bool prefix =
      old.columns.size() <= columns_.size() && std::equal(old.columns.begin(), old.columns.end(), columns_.begin());
  if (!prefix) {
    std::error_code ec;
    std::filesystem::rename(path_, path_ + ".old", ec);
    return;
  }
  for (auto& r : old.rows) {
    char* end = nullptr;
    long long step = std::strtoll(r[0].c_str(), &end, 10);
    r.resize(columns_.size());
    if (end != r[0].c_str() && step <= keep_up_to) rows_.push_back(join(r));
  }
}

void CsvLog::add(const std::vector<std::pair<std::string, std::string>>& cells) {
  std::vector<std::string> row(columns_.size());
  for (const auto& [name, value] : cells) {
    auto it = std::find(columns_.begin(), columns_.end(), name);
    if (it == columns_.end()) throw std::invalid_argument("'" + name + "' is not a column of " + path_);
    row[size_t(it - columns_.begin())] = value;
  }
  rows_.push_back(join(row));
}

bool CsvLog::flush(std::string* error) {
  std::string text = join(columns_) + "\n";
  for (auto& r : rows_) text += r + "\n";
  return write_file_atomic(path_, text, error);
}

int CsvTable::column(const std::string& name) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return int(i);
  return -1;
}

std::vector<double> CsvTable::numbers(const std::string& name) const {
  std::vector<double> out;
  int c = column(name);
  if (c < 0) return out;
  for (auto& r : rows) {
    const std::string& s = r[size_t(c)];
    char* end = nullptr;
    double x = std::strtod(s.c_str(), &end);
    out.push_back(s.empty() || end == s.c_str() ? NAN : x);
  }
  return out;
}

bool read_csv(const std::string& path, CsvTable& out, std::string* error) {
  std::string text;
  if (!read_file(path, text, error)) return false;
  std::istringstream in(text);
  std::string line;
  out = CsvTable();
  if (!std::getline(in, line) || line.empty()) {
    if (error) *error = path + ": no header line";
    return false;
  }
  out.columns = split(line);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto r = split(line);
    if (r.size() == out.columns.size()) out.rows.push_back(std::move(r));
  }
  return true;
}

std::string fmt_num(double x) {
  if (!std::isfinite(x)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

}  // namespace jz
