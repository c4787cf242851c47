// Players for matches, made from text specs:
//   random[:seed=S]                                   uniform over legal moves
//   greedy[:seed=S]                                   most material in one ply, uniform among equals
//   alphabeta:level=easy|normal|expert | depth=D | nodes=N | movetime=MS [,scores=D]
//   uci:PATH [ARGS...][,movetime=MS|nodes=N|depth=D][,timeout=MS][,Option=Value...]
//   net:PATH[,sims=N|movetime=MS][,batch=B,reuse=0|1] MCTS with a network checkpoint (movetime: as the UCI
//                                                     engine plays, tree kept, 8 leaves per network call;
//       [,mate1=0|1]                                  mate1=0: no mate-in-one check at expansion)
//       [,precision=fp32|bf16|auto]                   default: auto (bf16 on AVX512-BF16) with movetime, else fp32
//       [,cpuct=C,cpuct_growth=G,fpu=F,ptemp=T]       search constants (mcts/search.h), for tuning play
// Every spec also takes name=NAME (the name in result files and rating tables; default: the spec).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"
#include "core/rules.h"

namespace jz {

struct PlayerReply {
  Move move = Move::none();
  // Non-empty: the player forfeits the game (illegal or missing move, crash, timeout).
  std::string error;
  Ending forfeit = Ending::ILLEGAL_MOVE;  // or Ending::TIME
  std::string info;                       // last search report (depth, score), for logs
  // Search effort of this move (-1: not reported): network evaluations (net), nodes (alphabeta, UCI engines
  // that report them). Matches record it, so that a time-limited result says how much search each side had.
  int64_t nodes = -1;
  // The player's evaluation of pos (side to move's view), when it reports one: centipoints, or a
  // mate in `mate` moves (+ it mates, - it is mated).
  bool has_score = false;
  int score_cp = 0, mate = 0;
  // Every legal move's score (side to move's view) when asked for (alphabeta:...,scores=D).
  std::vector<std::pair<Move, int>> root_scores;
};

class Player {
 public:
  virtual ~Player() = default;
  // Called once before each game (a player instance may be reused for several games).
  virtual bool new_game(Ruleset /*rules*/, std::string* /*error*/) { return true; }
  // Called with the start of each game: false + reason when the player cannot play its rule options
  // (a network trained without them, a UCI engine without those options).
  virtual bool accepts(const Position& /*start*/, std::string* /*error*/) { return true; }
  // Chooses a move for the side to move in pos; pos holds the game's full history since start_fen,
  // and moves lists that history (the opening plies included).
  virtual PlayerReply play(const Position& pos, const std::string& start_fen, const std::vector<Move>& moves) = 0;
};

struct PlayerSpec {
  std::string text;                                          // as given
  std::string kind;                                          // random, alphabeta, uci, net
  std::string arg;                                           // path (uci, net)
  std::vector<std::pair<std::string, std::string>> options;  // key=value, in order
  // name= option if given, else the spec text.
  std::string name() const;
  const std::string* find(const std::string& key) const;
};

bool parse_player_spec(const std::string& text, PlayerSpec& out, std::string* error);
// Parses and checks the spec (kind, keys, values, that files exist) without starting anything.
bool check_player_spec(const std::string& text, std::string* error);
// Makes a player; seed varies the play of players that randomize. nullptr + *error on failure.
std::unique_ptr<Player> make_player(const std::string& text, uint64_t seed, std::string* error);

// Per-kind factories (player.cpp dispatches; alphabeta and net exist only when their libraries are built).
// With out == nullptr they only check the spec.
bool make_random_player(const PlayerSpec& s, uint64_t seed, std::unique_ptr<Player>* out, std::string* error);
bool make_greedy_player(const PlayerSpec& s, uint64_t seed, std::unique_ptr<Player>* out, std::string* error);
bool make_alphabeta_player(const PlayerSpec& s, uint64_t seed, std::unique_ptr<Player>* out, std::string* error);
bool make_uci_player(const PlayerSpec& s, uint64_t seed, std::unique_ptr<Player>* out, std::string* error);
bool make_net_player(const PlayerSpec& s, uint64_t seed, std::unique_ptr<Player>* out, std::string* error);

// Helpers for the factories: integer option in [lo, hi]; false + *error if malformed or out of range.
bool spec_int(const PlayerSpec& s, const std::string& key, int64_t lo, int64_t hi, int64_t& out, std::string* error);
// Same for a number in [lo, hi].
bool spec_double(const PlayerSpec& s, const std::string& key, double lo, double hi, double& out, std::string* error);
// Every option key is in allowed (name is always allowed).
bool spec_keys(const PlayerSpec& s, const std::vector<std::string>& allowed, std::string* error);

}  // namespace jz
