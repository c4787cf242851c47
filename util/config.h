// Configuration files: a YAML subset (nested maps by indentation, scalars, inline [a, b] lists,
// # comments), flattened to dotted keys ("search.simulations"). Typed getters report bad values,
// and unused_keys() lets a command reject options it does not know.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

namespace jz {

class Config {
 public:
  // Parses text; on failure returns false with "<source>:<line>: <reason>" in *error.
  bool parse(const std::string& text, const std::string& source, std::string* error);
  bool load(const std::string& path, std::string* error);
  // Applies "key=value" (command-line overrides).
  bool set_override(const std::string& assignment, std::string* error);
  void set(const std::string& key, const std::string& value) { values_[key] = value; }

  bool has(const std::string& key) const { return values_.count(key) > 0; }
  // Getters mark the key as used; they throw ConfigError on a value of the wrong type.
  std::string get_string(const std::string& key, const std::string& def) const;
  long long get_int(const std::string& key, long long def) const;
  double get_double(const std::string& key, double def) const;
  bool get_bool(const std::string& key, bool def) const;
  std::vector<double> get_doubles(const std::string& key, const std::vector<double>& def) const;

  std::vector<std::string> unused_keys() const;
  const std::map<std::string, std::string>& values() const { return values_; }
  std::string source() const { return source_; }
  // Serializes back to the YAML subset (stable order).
  std::string dump() const;

 private:
  std::map<std::string, std::string> values_;
  mutable std::set<std::string> used_;
  std::string source_ = "<config>";
};

struct ConfigError : std::exception {
  std::string msg;
  explicit ConfigError(std::string m) : msg(std::move(m)) {}
  const char* what() const noexcept override { return msg.c_str(); }
};

}  // namespace jz
