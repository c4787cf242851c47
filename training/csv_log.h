// A small CSV metrics file that is always replaced atomically (the whole file is rewritten on each
// flush; metrics files stay small). A resumed run drops rows past its checkpoint's step so the
// file never holds steps twice.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace jz {

class CsvLog {
 public:
  // Opens path with these columns. Existing rows are kept if their first column (a step) is
  // <= keep_up_to and the old header is these columns or a prefix of them (a newer version added
  // columns at the end: old rows get empty cells); a file with another header is moved to <path>.old.
  CsvLog(std::string path, std::vector<std::string> columns, int64_t keep_up_to);
  // One row by column name, so a row cannot drift from the header: unnamed columns stay empty, a name
  // that is not a column throws std::invalid_argument.
  void add(const std::vector<std::pair<std::string, std::string>>& cells);
  // Rewrites the file atomically. False with a reason.
  bool flush(std::string* error);
  size_t rows() const { return rows_.size(); }

 private:
  std::string path_;
  std::vector<std::string> columns_;
  std::vector<std::string> rows_;  // joined lines
};

// Parses a CSV with a header line (no quoting: our files never need it). Rows of the wrong width
// are skipped.
struct CsvTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  int column(const std::string& name) const;  // -1 if absent
  // Numeric column (NaN where empty or not a number); empty if absent.
  std::vector<double> numbers(const std::string& name) const;
};
bool read_csv(const std::string& path, CsvTable& out, std::string* error);

// "%.6g" formatting.
std::string fmt_num(double x);

}  // namespace jz
