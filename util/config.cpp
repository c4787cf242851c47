#include "config.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "fileio.h"

namespace jz {

namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

// Removes a trailing comment that is not inside quotes.
std::string strip_comment(const std::string& s) {
  bool sq = false, dq = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\'' && !dq)
      sq = !sq;
    else if (c == '"' && !sq)
      dq = !dq;
    else if (c == '#' && !sq && !dq && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t'))
      return s.substr(0, i);
  }
  return s;
}

std::string unquote(const std::string& v) {
  if (v.size() >= 2 && ((v.front() == '"' && v.back() == '"') || (v.front() == '\'' && v.back() == '\'')))
    return v.substr(1, v.size() - 2);
  return v;
}

}  // namespace

bool Config::parse(const std::string& text, const std::string& source, std::string* error) {
  source_ = source;
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  std::vector<std::pair<int, std::string>> stack;  // (indent, key) of open maps
  while (std::getline(in, line)) {
    ++lineno;
    std::string body = strip_comment(line);
    if (trim(body).empty()) continue;
    if (body.find('\t') != std::string::npos && body.find_first_not_of(" \t") > body.find('\t')) {
      if (error) *error = source + ":" + std::to_string(lineno) + ": tabs are not allowed for indentation";
      return false;
    }
    int indent = int(body.find_first_not_of(' '));
    std::string content = trim(body);
    size_t colon = content.find(':');
    if (colon == std::string::npos || colon == 0) {
      if (error) *error = source + ":" + std::to_string(lineno) + ": expected 'key: value', got '" + content + "'";
      return false;
    }
    std::string key = trim(content.substr(0, colon));
    std::string value = trim(content.substr(colon + 1));
    for (char c : key)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) {
        if (error) *error = source + ":" + std::to_string(lineno) + ": bad key '" + key + "'";
        return false;
      }
    while (!stack.empty() && stack.back().first >= indent) stack.pop_back();
    std::string full;
    for (auto& s : stack) full += s.second + ".";
    full += key;
    const std::string where = source + ":" + std::to_string(lineno);
    if (value.empty()) {
      if (stack.empty()) sections_[key] = {where, next_order_++};
      stack.push_back({indent, key});
    } else {
      values_[full] = unquote(value);
      note(full, where);
    }
  }
  return true;
}

bool Config::load(const std::string& path, std::string* error) {
  std::string text;
  if (!read_file(path, text, error)) return false;
  return parse(text, path, error);
}

bool Config::set_override(const std::string& assignment, std::string* error) {
  size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    if (error) *error = "override '" + assignment + "' must look like key=value";
    return false;
  }
  std::string key = trim(assignment.substr(0, eq));
  values_[key] = unquote(trim(assignment.substr(eq + 1)));
  note(key, "--set " + assignment);
  return true;
}

void Config::set(const std::string& key, const std::string& value) {
  values_[key] = value;
  note(key, source_);
}

void Config::note(const std::string& key, const std::string& where) { origin_[key] = {where, next_order_++}; }

std::string Config::where(const std::string& key) const {
  auto it = origin_.find(key);
  return it == origin_.end() ? source_ : it->second.where;
}

std::string Config::get_string(const std::string& key, const std::string& def) const {
  auto it = values_.find(key);
  used_.insert(key);
  return it == values_.end() ? def : it->second;
}

long long Config::get_int(const std::string& key, long long def) const {
  auto it = values_.find(key);
  used_.insert(key);
  if (it == values_.end()) return def;
  char* end = nullptr;
  long long v = std::strtoll(it->second.c_str(), &end, 10);
  if (it->second.empty() || *end)
    throw ConfigError(where(key) + ": '" + key + "' must be an integer, got '" + it->second + "'");
  return v;
}

double Config::get_double(const std::string& key, double def) const {
  auto it = values_.find(key);
  used_.insert(key);
  if (it == values_.end()) return def;
  char* end = nullptr;
  double v = std::strtod(it->second.c_str(), &end);
  if (it->second.empty() || *end)
    throw ConfigError(where(key) + ": '" + key + "' must be a number, got '" + it->second + "'");
  return v;
}

bool Config::get_bool(const std::string& key, bool def) const {
  auto it = values_.find(key);
  used_.insert(key);
  if (it == values_.end()) return def;
  const std::string& v = it->second;
  if (v == "true" || v == "yes" || v == "on" || v == "1") return true;
  if (v == "false" || v == "no" || v == "off" || v == "0") return false;
  throw ConfigError(where(key) + ": '" + key + "' must be true or false, got '" + v + "'");
}

std::vector<double> Config::get_doubles(const std::string& key, const std::vector<double>& def) const {
  auto it = values_.find(key);
  used_.insert(key);
  if (it == values_.end()) return def;
  std::string v = it->second;
  if (v.size() < 2 || v.front() != '[' || v.back() != ']')
    throw ConfigError(where(key) + ": '" + key + "' must be a list like [1, 2], got '" + v + "'");
  std::vector<double> out;
  std::stringstream ss(v.substr(1, v.size() - 2));
  std::string item;
  while (std::getline(ss, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;
    char* end = nullptr;
    double d = std::strtod(item.c_str(), &end);
    if (*end) throw ConfigError(where(key) + ": '" + key + "' has a non-number '" + item + "'");
    out.push_back(d);
  }
  return out;
}

std::vector<std::string> Config::unused_keys() const {
  std::vector<std::string> out;
  for (auto& kv : values_)
    if (!used_.count(kv.first)) out.push_back(kv.first);
  return out;
}

bool Config::check_sections(const std::vector<std::string>& own, std::string* error) const {
  const std::vector<std::string>& known = config_sections();
  auto in = [](const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  std::string list;
  for (const std::string& s : known) list += (list.empty() ? "" : ", ") + s;
  int first = -1;
  std::string problem;
  auto report = [&](const Origin& o, const std::string& why) {
    if (first < 0 || o.order < first) first = o.order, problem = o.where + ": " + why;
  };
  for (const auto& [name, o] : sections_)
    if (!in(known, name)) report(o, "unknown section '" + name + "' (sections: " + list + ")");
  for (const auto& kv : values_) {
    const std::string& key = kv.first;
    auto it = origin_.find(key);
    Origin o = it == origin_.end() ? Origin{source_, 1 << 30} : it->second;
    size_t dot = key.find('.');
    std::string section = key.substr(0, dot);
    if (dot == std::string::npos)
      report(o, "'" + key + "' is not in a section (sections: " + list + ")");
    else if (!in(known, section))
      report(o, "unknown section '" + section + "' (sections: " + list + ")");
    else if (in(own, section) && !used_.count(key))
      report(o, "unknown option '" + key + "'");
  }
  if (first < 0) return true;
  if (error) *error = problem;
  return false;
}

const std::vector<std::string>& config_sections() {
  static const std::vector<std::string> all = {"selfplay", "search", "network", "training", "evaluation"};
  return all;
}

const std::vector<std::string>& config_sections_of(const std::string& command) {
  static const std::vector<std::string> selfplay = {"selfplay", "search", "network"};
  if (command == "selfplay" || command == "soak") return selfplay;
  if (command == "train" || command == "cluster") return config_sections();
  throw std::invalid_argument("config_sections_of: '" + command + "' takes no config");
}

bool load_config(const std::string& path, const std::vector<std::string>& overrides, Config& out, std::string* error) {
  if (!out.load(path, error)) return false;
  for (const std::string& o : overrides)
    if (!out.set_override(o, error)) return false;
  return true;
}

std::string Config::dump() const {
  std::string out;
  std::vector<std::string> open;
  for (auto& kv : values_) {
    std::vector<std::string> parts;
    std::stringstream ss(kv.first);
    std::string p;
    while (std::getline(ss, p, '.')) parts.push_back(p);
    size_t common = 0;
    while (common < open.size() && common + 1 < parts.size() && open[common] == parts[common]) ++common;
    open.resize(common);
    for (size_t i = common; i + 1 < parts.size(); ++i) {
      out += std::string(2 * i, ' ') + parts[i] + ":\n";
      open.push_back(parts[i]);
    }
    out += std::string(2 * (parts.size() - 1), ' ') + parts.back() + ": " + kv.second + "\n";
  }
  return out;
}

}  // namespace jz
