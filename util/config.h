// Configuration files: a YAML subset (nested maps by indentation, scalars, inline [a, b] lists,
// # comments), flattened to dotted keys ("search.simulations"). Typed getters report bad values.
//
// One file configures every command (configs/*.yaml). Its top-level sections are the registry below;
// a command reads the sections it uses and then calls check_sections(config_sections_of(command)):
// an unknown top-level section is an error, a key in one of the command's sections that it did not
// read is an unknown option, and the other known sections are accepted unread. Errors name the file
// and line of the key ("configs/cpu.yaml:12: ..."), or the --set that gave it.
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
  void set(const std::string& key, const std::string& value);
  // Where a key was given: "<file>:<line>", "--set key=value", or the source for set() (empty if absent).
  std::string where(const std::string& key) const;

  bool has(const std::string& key) const { return values_.count(key) > 0; }
  // Getters mark the key as used; they throw ConfigError on a value of the wrong type.
  std::string get_string(const std::string& key, const std::string& def) const;
  long long get_int(const std::string& key, long long def) const;
  double get_double(const std::string& key, double def) const;
  bool get_bool(const std::string& key, bool def) const;
  std::vector<double> get_doubles(const std::string& key, const std::vector<double>& def) const;

  std::vector<std::string> unused_keys() const;
  // After a command has read its options: false with "<where>: <reason>" (the first problem in file
  // order, overrides last) for an unknown top-level section, a key outside any section, or a key of
  // one of `own` sections that no getter read.
  bool check_sections(const std::vector<std::string>& own, std::string* error) const;
  const std::map<std::string, std::string>& values() const { return values_; }
  std::string source() const { return source_; }
  // Serializes back to the YAML subset (stable order).
  std::string dump() const;

 private:
  struct Origin {
    std::string where;  // "<file>:<line>" or "--set k=v"
    int order = 0;      // file order; overrides come after the file
  };
  void note(const std::string& key, const std::string& where);
  std::map<std::string, std::string> values_;
  std::map<std::string, Origin> origin_;    // per key
  std::map<std::string, Origin> sections_;  // top-level section headers ("selfplay:")
  int next_order_ = 0;
  mutable std::set<std::string> used_;
  std::string source_ = "<config>";
};

// Every top-level section a config file may have (selfplay, search, network, training, evaluation).
const std::vector<std::string>& config_sections();
// The sections a command that takes --config reads and checks strictly: selfplay and soak read
// selfplay, search, network; train and cluster (which run both) read them all. Throws
// std::invalid_argument for a command that takes no config.
const std::vector<std::string>& config_sections_of(const std::string& command);
// Loads a config file and applies --set overrides in order; false with a one-line reason.
bool load_config(const std::string& path, const std::vector<std::string>& overrides, Config& out, std::string* error);

struct ConfigError : std::exception {
  std::string msg;
  explicit ConfigError(std::string m) : msg(std::move(m)) {}
  const char* what() const noexcept override { return msg.c_str(); }
};

}  // namespace jz
