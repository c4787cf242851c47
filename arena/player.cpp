#include "arena/player.h"

#include <cstdio>
#include <cstdlib>
#include <random>

#include "core/movegen.h"
#include "util/random.h"

namespace jz {

namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The legal moves of pos; false with r.error set when there are none.
bool legal_moves(const Position& pos, MoveList& list, PlayerReply& r) {
  generate_legal(pos, list);
  if (list.size == 0) r.error = "no legal move";
  return list.size > 0;
}

class RandomPlayer : public Player {
 public:
  explicit RandomPlayer(uint64_t seed) : rng_(seed) {}
  PlayerReply play(const Position& pos, const std::string&, const std::vector<Move>&) override {
    MoveList list;
    PlayerReply r;
    if (!legal_moves(pos, list, r)) return r;
    r.move = list[int(std::uniform_int_distribution<int>(0, list.size - 1)(rng_))];
    return r;
  }

 private:
  std::mt19937_64 rng_;
};

// The most material in one ply (counting points), uniform among equals; passes only when forced.
// A rung of the learning curve between random and a depth-1 search.
class GreedyPlayer : public Player {
 public:
  explicit GreedyPlayer(uint64_t seed) : rng_(seed) {}
  PlayerReply play(const Position& pos, const std::string&, const std::vector<Move>&) override {
    MoveList list;
    PlayerReply r;
    if (!legal_moves(pos, list, r)) return r;
    std::vector<Move> best;
    int best_gain = -1;
    for (Move m : list) {
      if (m.is_pass() && list.size > 1) continue;
      int gain = m.is_pass() ? 0 : PIECE_POINTS[type_of(pos.piece_on(m.to()))];
      if (gain > best_gain) best_gain = gain, best.clear();
      if (gain == best_gain) best.push_back(m);
    }
    r.move = best[size_t(std::uniform_int_distribution<size_t>(0, best.size() - 1)(rng_))];
    return r;
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace

std::string PlayerSpec::name() const {
  const std::string* n = find("name");
  return n ? *n : text;
}

const std::string* PlayerSpec::find(const std::string& key) const {
  for (auto& [k, v] : options)
    if (k == key) return &v;
  return nullptr;
}

bool parse_player_spec(const std::string& text, PlayerSpec& out, std::string* error) {
  out = PlayerSpec();
  out.text = text;
  size_t colon = text.find(':');
  out.kind = trim(text.substr(0, colon));
  if (out.kind.empty()) {
    *error = "empty player spec (expected random, alphabeta:..., uci:PATH or net:PATH)";
    return false;
  }
  if (colon == std::string::npos) return true;
  std::string rest = text.substr(colon + 1);
  size_t pos = 0;
  for (int item = 0;; ++item) {
    size_t comma = rest.find(',', pos);
    std::string part = trim(rest.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    size_t eq = part.find('=');
    if (eq != std::string::npos) {
      std::string key = trim(part.substr(0, eq)), value = trim(part.substr(eq + 1));
      if (key.empty()) {
        *error = "player spec '" + text + "': empty key in '" + part + "'";
        return false;
      }
      out.options.emplace_back(key, value);
    } else if (item == 0) {
      out.arg = part;  // may be empty: the kind's factory says what it needs
    } else {
      *error = "player spec '" + text + "': expected key=value, got '" + part + "'";
      return false;
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return true;
}

bool spec_int(const PlayerSpec& s, const std::string& key, int64_t lo, int64_t hi, int64_t& out, std::string* error) {
  const std::string* v = s.find(key);
  if (!v) return true;
  char* end = nullptr;
  long long x = std::strtoll(v->c_str(), &end, 10);
  if (v->empty() || *end || x < lo || x > hi) {
    *error = "player spec '" + s.text + "': " + key + " must be an integer in [" + std::to_string(lo) + ", " +
             std::to_string(hi) + "], got '" + *v + "'";
    return false;
  }
  out = x;
  return true;
}

namespace {
std::string shortest(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}
}  // namespace

bool spec_double(const PlayerSpec& s, const std::string& key, double lo, double hi, double& out, std::string* error) {
  const std::string* v = s.find(key);
  if (!v) return true;
  char* end = nullptr;
  double x = std::strtod(v->c_str(), &end);
  if (v->empty() || *end || !(x >= lo && x <= hi)) {
    *error = "player spec '" + s.text + "': " + key + " must be a number in [" + shortest(lo) + ", " + shortest(hi) +
             "], got '" + *v + "'";
    return false;
  }
  out = x;
  return true;
}

bool spec_keys(const PlayerSpec& s, const std::vector<std::string>& allowed, std::string* error) {
  for (auto& [k, v] : s.options) {
    bool ok = k == "name";
    for (auto& a : allowed) ok |= k == a;
    if (!ok) {
      std::string list = "name";
      for (auto& a : allowed) list += ", " + a;
      *error = "player spec '" + s.text + "': unknown option '" + k + "' for " + s.kind + " (known: " + list + ")";
      return false;
    }
  }
  if (const std::string* n = s.find("name"); n && n->empty()) {
    *error = "player spec '" + s.text + "': empty name";
    return false;
  }
  return true;
}

namespace {

// Players that take only seed=S: a fixed seed still differs between games (the match seed), but is
// reproducible.
template <class P>
bool make_seeded_player(const PlayerSpec& s, uint64_t seed, std::unique_ptr<Player>* out, std::string* error) {
  if (!s.arg.empty()) {
    *error = "player spec '" + s.text + "': " + s.kind + " takes no path";
    return false;
  }
  int64_t fixed = -1;
  if (!spec_keys(s, {"seed"}, error) || !spec_int(s, "seed", 0, INT64_MAX, fixed, error)) return false;
  if (out) out->reset(new P(fixed >= 0 ? seed ^ (uint64_t(fixed) * GOLDEN_GAMMA) : seed));
  return true;
}

}  // namespace

bool make_random_player(const PlayerSpec& s, uint64_t seed, std::unique_ptr<Player>* out, std::string* error) {
  return make_seeded_player<RandomPlayer>(s, seed, out, error);
}

bool make_greedy_player(const PlayerSpec& s, uint64_t seed, std::unique_ptr<Player>* out, std::string* error) {
  return make_seeded_player<GreedyPlayer>(s, seed, out, error);
}

namespace {

bool dispatch(const std::string& text, uint64_t seed, std::unique_ptr<Player>* out, std::string* error) {
  PlayerSpec s;
  if (!parse_player_spec(text, s, error)) return false;
  if (s.kind == "random") return make_random_player(s, seed, out, error);
  if (s.kind == "greedy") return make_greedy_player(s, seed, out, error);
  if (s.kind == "alphabeta") return make_alphabeta_player(s, seed, out, error);
  if (s.kind == "uci") return make_uci_player(s, seed, out, error);
  if (s.kind == "net") return make_net_player(s, seed, out, error);
  *error = "player spec '" + text + "': unknown kind '" + s.kind + "' (expected random, greedy, alphabeta, uci or net)";
  // "greedy,name=X": options follow the kind after a colon, not a comma.
  const size_t comma = s.kind.find(',');
  if (comma != std::string::npos)
    *error += "; options follow a colon: '" + s.kind.substr(0, comma) + ":" + s.kind.substr(comma + 1) + "'";
  return false;
}

}  // namespace

bool check_player_spec(const std::string& text, std::string* error) { return dispatch(text, 0, nullptr, error); }

std::unique_ptr<Player> make_player(const std::string& text, uint64_t seed, std::string* error) {
  std::unique_ptr<Player> p;
  if (!dispatch(text, seed, &p, error)) return nullptr;
  return p;
}

}  // namespace jz
