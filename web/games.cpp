#include "web/games.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/setups.h"
#include "play/engine.h"
#include "play/game.h"
#include "util/random.h"
#include "web/game_json.h"
#include "web/levels.h"
#include "web/player_db.h"
#include "web/players_api.h"
#include "web/ranking.h"

namespace jz {

using json = nlohmann::json;

namespace {

// Strings from requests (ids, move text, FENs) may be any bytes: invalid UTF-8 is sent as U+FFFD
// rather than making dump() throw.
ApiReply reply(int status, const json& j) { return {status, j.dump(-1, ' ', false, json::error_handler_t::replace)}; }
ApiReply error(int status, const std::string& msg) { return reply(status, json{{"error", msg}}); }

bool is_human(const std::string& human, Color c) {
  return human == "both" || (human == "cho" && c == CHO) || (human == "han" && c == HAN);
}

// Parses a request body that must be a JSON object; false + reply on failure.
bool parse_body(const std::string& body, json& j, ApiReply& fail) {
  j = json::parse(body, nullptr, false);
  if (j.is_discarded()) return fail = error(400, "malformed JSON"), false;
  if (!j.is_object()) return fail = error(400, "the request body must be a JSON object"), false;
  return true;
}

bool get_string(const json& j, const char* key, std::string& out, bool required, ApiReply& fail) {
  if (!j.contains(key)) {
    if (required) fail = error(400, std::string("missing field '") + key + "'");
    return !required;
  }
  if (!j[key].is_string()) return fail = error(400, std::string("field '") + key + "' must be a string"), false;
  out = j[key].get<std::string>();
  return true;
}

}  // namespace

GameStore::GameStore(const ServerOptions& opts, std::shared_ptr<Evaluator> net)
    : opts_(opts),
      analyzer_(AnalysisOptions{opts.analysis_nodes}),
      id_state_(std::random_device{}() ^ (uint64_t(std::random_device{}()) << 32) ^
                uint64_t(std::chrono::steady_clock::now().time_since_epoch().count())),
      slots_(std::make_unique<EngineSlots>(opts.engine_slots > 0 ? opts.engine_slots
                                                                 : int(std::max(1u, std::thread::hardware_concurrency())))) {
  if (net) nets_[int(net->game())] = std::move(net);
  for (std::string* d : {&opts_.default_level, &opts_.xiangqi_default_level})
    if (*d != "easy" && *d != "normal" && *d != "expert" && *d != "net") *d = "expert";
}

void GameStore::add_network(std::shared_ptr<Evaluator> net) {
  if (net) nets_[int(net->game())] = std::move(net);
}

std::string GameStore::default_level(GameKind g) const {
  const std::string& d = g == GameKind::XIANGQI ? opts_.xiangqi_default_level : opts_.default_level;
  return d == "net" && !net(g) ? "expert" : d;  // "net" only with that game's network
}
GameStore::~GameStore() = default;

size_t GameStore::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return games_.size();
}

std::string GameStore::new_id() {
  // splitmix64 over a random seed: unguessable enough for a loopback toy, never repeats within a run.
  uint64_t z = splitmix64(id_state_);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)z);
  return buf;
}

void GameStore::forfeit_idle() {
  if (opts_.abandon_seconds <= 0) return;
  auto now = std::chrono::steady_clock::now();
  std::vector<std::shared_ptr<WebGame>> ranked;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (now - last_idle_check_ < std::chrono::seconds(1)) return;
    last_idle_check_ = now;
    for (auto& [id, g] : games_)
      if (g->rank.ranked) ranked.push_back(g);
  }
  for (auto& g : ranked) {
    std::unique_lock<std::mutex> lock(g->mutex, std::try_to_lock);  // a game in use is not idle
    if (!lock || g->game.over()) continue;
    if (g->game.ply() != g->seen_ply) {
      g->seen_ply = g->game.ply();
      g->seen_since = now;
    } else if (now - g->seen_since >= std::chrono::seconds(opts_.abandon_seconds)) {
      forfeit_if_ranked(*g);
    }
  }
}

std::shared_ptr<GameStore::WebGame> GameStore::find(const std::string& id) {
  forfeit_idle();
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = games_.find(id);
  if (it == games_.end()) return nullptr;
  it->second->last_used = ++clock_;
  return it->second;
}

// What the page offers for one game: its rule sets, levels (net only with that game's network) and default.
json GameStore::game_info(GameKind g) const {
  const auto& n = net(g);
  const bool x = g == GameKind::XIANGQI;
  json rules = json::array();
  for (int i = 0; i <= int(Ruleset::XIANGQI); ++i)
    if (game_of(Ruleset(i)) == g) rules.push_back(ruleset_name(Ruleset(i)));
  json levels = {"easy", "normal", "expert"};
  if (n) levels.push_back("net");
  const std::string& strength = x ? opts_.xiangqi_network_strength : opts_.network_strength;
  return {{"name", game_name(g)},
          {"rules", rules},
          {"levels", levels},
          {"network", n ? json(n->id()) : json(nullptr)},
          {"default_level", default_level(g)},
          {"default_reason", x ? opts_.xiangqi_default_reason : opts_.default_reason},
          {"level_info", web_levels_json(n != nullptr, n ? n->id() : "", strength)}};
}

ApiReply GameStore::info() const {
  json setups = json::array();
  for (int i = 0; i < 4; ++i) setups.push_back(wing_setup_name(WingSetup(i)));
  json rules = json::array();
  for (int i = 0; i <= int(Ruleset::XIANGQI); ++i) rules.push_back(ruleset_name(Ruleset(i)));
  json rule_options = json::array();
  for (int i = 0; i < RULE_OPTION_NB; ++i) rule_options.push_back(rule_option_name(i));
  json janggi = game_info(GameKind::JANGGI);  // the top-level levels and defaults are Janggi's
  return reply(200, {{"levels", janggi["levels"]},
                     {"setups", setups},
                     {"rules", rules},
                     {"rule_options", rule_options},
                     {"network", janggi["network"]},
                     {"max_think_ms", opts_.max_think_ms},
                     {"default_level", janggi["default_level"]},
                     {"default_reason", janggi["default_reason"]},
                     {"level_info", janggi["level_info"]},
                     {"games", {janggi, game_info(GameKind::XIANGQI)}},
                     {"ranked_rule", RANKED_RULE},
                     {"abandon_minutes", (opts_.abandon_seconds + 59) / 60},
                     {"players", db_ != nullptr}});
}

namespace {

// A new-game request, checked: hostile input gets a 400 with its reason, never a crash.
struct NewGameRequest {
  std::string rules_s = "janggi", cho = "inner", han = "inner", human = "cho", level, fen, options_s;  // level "": the game's default
  Ruleset rules = Ruleset::JANGGI;
  RuleOptions options;
  RankInfo rank;
};

// "variant" is another name for "rules" (UCI_Variant's word); Janggi's setups and rule options are
// refused for Xiangqi, which has one start position and no options.
bool parse_new_game(const json& j, NewGameRequest& q, ApiReply& fail) {
  std::string variant;
  if (!get_string(j, "rules", q.rules_s, false, fail) || !get_string(j, "variant", variant, false, fail) ||
      !get_string(j, "rule_options", q.options_s, false, fail) || !get_string(j, "cho_setup", q.cho, false, fail) ||
      !get_string(j, "han_setup", q.han, false, fail) || !get_string(j, "human", q.human, false, fail) ||
      !get_string(j, "level", q.level, false, fail) || !get_string(j, "fen", q.fen, false, fail) ||
      !get_string(j, "player", q.rank.player, false, fail))
    return false;
  if (!variant.empty()) {
    if (j.contains("rules") && variant != q.rules_s) return fail = error(400, "rules and variant differ"), false;
    q.rules_s = variant;
  }
  if (q.rules_s.size() > 64 || !parse_ruleset(q.rules_s, q.rules))
    return fail = error(400, "unknown rules '" + q.rules_s.substr(0, 64) + "'"), false;
  if (game_of(q.rules) == GameKind::XIANGQI) {
    if (j.contains("cho_setup") || j.contains("han_setup"))
      return fail = error(400, "xiangqi has one start position: cho_setup and han_setup are janggi's"), false;
    if (!q.options_s.empty()) return fail = error(400, "xiangqi takes no rule options (they are janggi's)"), false;
    if (q.human == "red") q.human = "cho";  // Red moves first, as Cho does
    if (q.human == "black") q.human = "han";
  }
  std::string err;
  if (!parse_rule_options(q.options_s, q.options, &err)) return fail = error(400, err), false;
  if (q.human != "cho" && q.human != "han" && q.human != "both" && q.human != "none")
    return fail = error(400, "human must be cho, han, both or none (red or black in xiangqi)"), false;
  if (j.contains("level") && q.level != "easy" && q.level != "normal" && q.level != "expert" && q.level != "net")
    return fail = error(400, "level must be easy, normal, expert or net"), false;
  if (j.contains("ranked") && !j["ranked"].is_boolean())
    return fail = error(400, "field 'ranked' must be true or false"), false;
  q.rank.ranked = j.value("ranked", false);
  return true;
}

}  // namespace

ApiReply GameStore::new_game(const std::string& body) {
  json j;
  ApiReply fail;
  if (!parse_body(body, j, fail)) return fail;
  NewGameRequest q;
  if (!parse_new_game(j, q, fail)) return fail;
  const GameKind game = game_of(q.rules);
  if (!j.contains("level")) q.level = default_level(game);
  const std::string& human = q.human;
  const std::string& level = q.level;
  const std::string& fen = q.fen;
  RankInfo& rank = q.rank;
  std::string err;
  if (level == "net" && !net(game))
    return error(400, std::string("no network is loaded for ") + game_name(game) + ": choose easy, normal or expert");
  if (!rank.player.empty()) {
    std::string why;
    if (!db_) return error(400, "this server keeps no players (start it with --data-dir)");
    if (!PlayerDb::valid_name(rank.player, &why)) return error(400, why);
  }
  if (rank.ranked && rank.player.empty()) return error(400, "a ranked game needs a player name");
  if (rank.ranked && q.options.any()) return error(400, "a ranked game is played without rule options");
  if (std::string why; rank.ranked && !ranked_start_ok(!fen.empty(), q.rules, human, &why)) return error(400, why);
  auto g = std::make_shared<WebGame>();
  if (fen.size() > 256) return error(400, "fen is too long");
  bool ok = fen.empty() ? g->game.start_setup(q.cho + "-" + q.han, q.rules, q.options, &err)
                        : g->game.start(fen, q.rules, q.options, &err);
  if (!ok) return error(400, err);
  if (level == "net" && !network_accepts(*net(game), g->game.pos(), &err)) return error(400, err);
  if (!rank.player.empty()) {
    PlayerStats ps;
    if (!db_->ensure_player(rank.player, &ps, &err)) return error(503, err);
    rank.player = ps.name;  // as first registered
  }
  g->human = human;
  g->level = level;
  g->rank = rank;
  std::vector<std::shared_ptr<WebGame>> left;  // the player's live games, and games dropped from memory
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!rank.player.empty())
      for (auto& [id, other] : games_)
        if (other->rank.player == rank.player) left.push_back(other);
    while (int(games_.size()) >= opts_.max_games) {
      auto oldest = games_.begin();
      for (auto it = games_.begin(); it != games_.end(); ++it)
        if (it->second->last_used < oldest->second->last_used) oldest = it;
      left.push_back(oldest->second);
      games_.erase(oldest);
    }
    do g->id = new_id();
    while (games_.count(g->id));
    g->last_used = ++clock_;
    games_[g->id] = g;
  }
  for (auto& other : left) {
    std::lock_guard<std::mutex> lock(other->mutex);
    forfeit_if_ranked(*other);
  }
  std::lock_guard<std::mutex> lock(g->mutex);
  return reply(200, state_json(*g));
}

std::shared_ptr<GameStore::WebGame> GameStore::live_game(const std::string& id, std::unique_lock<std::mutex>& lock,
                                                         ApiReply& fail) {
  auto g = find(id);
  if (!g) return fail = error(404, "unknown game '" + id + "'"), nullptr;
  lock = std::unique_lock<std::mutex>(g->mutex);
  if (g->game.over()) return fail = error(409, "the game is over: " + g->game.result().str()), nullptr;
  return g;
}

// A ranked game its player leaves while it is on (a new game, or dropped from memory) counts as
// lost, so a loss cannot be dodged by walking away. The caller holds g.mutex.
void GameStore::forfeit_if_ranked(WebGame& g) {
  if (!g.rank.ranked || g.rank.recorded || g.game.over() || g.game.ply() == 0) return;
  g.game.resign(g.human == "han" ? HAN : CHO);
  g.rank.note = "abandoned: counted as a loss";
  record_if_finished(g.game, g.id, g.level, g.human, g.rank, db_.get());
}

void GameStore::set_player_db(std::shared_ptr<PlayerDb> db, const AccountOptions& accounts) {
  db_ = std::move(db);
  accounts_ = db_ ? std::make_unique<Accounts>(db_.get(), accounts) : nullptr;
}

std::string GameStore::owner(const std::string& id) {
  auto g = find(id);
  if (!g) return "";
  std::lock_guard<std::mutex> lock(g->mutex);
  return g->rank.player;
}

bool GameStore::finished(const std::string& id, Finished* out, ApiReply* fail) {
  if (auto g = find(id)) {
    std::lock_guard<std::mutex> lock(g->mutex);
    if (!g->game.over()) return *fail = error(409, "the game is still on: its review opens when it ends"), false;
    *out = {g->game, g->human, g->level, g->rank.player, "", g->rank.ranked, g->rank.points};
    return true;
  }
  FinishedGame stored;
  std::string err;
  Ruleset rules;
  std::vector<Move> moves;
  if (!db_ || !db_->game_by_web_id(id, &stored, &err)) return *fail = error(404, "unknown game '" + id + "'"), false;
  if (!replay_finished_game(stored, rules, moves) || !out->game.start(stored.start_fen, rules, &err))
    return *fail = error(422, "the stored game does not replay"), false;
  for (Move m : moves) out->game.play(m, &err);
  if (!out->game.over() && stored.winner != "draw") out->game.resign(stored.winner == "cho" ? HAN : CHO);  // resigned
  out->human = stored.human, out->level = stored.level, out->player = stored.player;
  out->finished_at = stored.finished_at, out->ranked = stored.ranked, out->points = stored.points;
  return true;
}

ApiReply GameStore::state(const std::string& id) {
  auto g = find(id);
  if (!g) return error(404, "unknown game '" + id + "'");
  std::lock_guard<std::mutex> lock(g->mutex);
  return reply(200, state_json(*g));
}

ApiReply GameStore::legal(const std::string& id, const std::string& from) {
  auto g = find(id);
  if (!g) return error(404, "unknown game '" + id + "'");
  std::lock_guard<std::mutex> lock(g->mutex);
  Square sq = NO_SQUARE;
  if (!from.empty() && !parse_square(from, sq)) return error(400, "bad square '" + from + "'");
  json moves = json::array();
  if (!g->game.over()) {
    MoveList list;
    generate_legal(g->game.pos(), list);
    for (Move m : list)
      if (sq == NO_SQUARE || m.from() == sq)
        moves.push_back(move_json(g->game.pos(), m));
  }
  return reply(200, {{"moves", moves}});
}

ApiReply GameStore::move(const std::string& body) {
  json j;
  ApiReply fail;
  std::string id, text;
  if (!parse_body(body, j, fail) || !get_string(j, "id", id, true, fail) || !get_string(j, "move", text, true, fail))
    return fail;
  std::unique_lock<std::mutex> lock;
  auto g = live_game(id, lock, fail);
  if (!g) return fail;
  if (!is_human(g->human, g->game.pos().side_to_move())) return error(409, "it is the engine's turn");
  std::string err;
  if (!g->game.play_text(text, nullptr, &err)) return error(422, err);
  record_if_finished(g->game, g->id, g->level, g->human, g->rank, db_.get());
  return reply(200, state_json(*g));
}

// The level's search for the side to move of a live game; g.eval gets its report. False + *fail
// when the level is unknown, the engine refuses the position or fails.
bool GameStore::search(WebGame& g, const std::string& level, std::chrono::steady_clock::time_point request, Move& m,
                       ApiReply& fail) {
  if (level != "easy" && level != "normal" && level != "expert" && level != "net")
    return fail = error(400, "level must be easy, normal, expert or net"), false;
  const std::shared_ptr<Evaluator>& n = net(g.game.pos().game());
  if (level == "net" && !n)
    return fail = error(400, std::string("no network is loaded for ") + game_name(g.game.pos().game())), false;
  if (!g.engine) {
    g.engine = std::make_unique<PlayEngine>(opts_.hash_mb);
    g.engine->set_simulations(opts_.simulations);
  }
  PlayEngine& e = *g.engine;
  std::string err;
  e.set_network(level == "net" ? n : nullptr, &err);
  // Easy's weaker moves are drawn from the game's own seed (its id).
  if (level != "net") e.set_level(alphabeta_spec(level, std::strtoull(g.id.c_str(), nullptr, 16)), &err);
  if (!e.accepts(g.game.pos(), &err)) return fail = error(409, err), false;
  // The limit counts from the request: a search that waited for a slot gets what is left, and one
  // that could not start with at least MIN_SEARCH_MS left is refused as busy.
  constexpr int MIN_SEARCH_MS = 20;
  const int budget = std::min(opts_.max_think_ms, find_web_level(level, true)->search_ms());
  using ms = std::chrono::milliseconds;
  if (!slots_->acquire_until(request + ms(budget - MIN_SEARCH_MS)))
    return fail = error(503, "busy: every engine is thinking; try again in a moment"), false;
  struct Release {
    EngineSlots& s;
    ~Release() { s.release(); }
  } release{*slots_};
  auto since = [&] { return std::chrono::duration_cast<ms>(std::chrono::steady_clock::now() - request).count(); };
  SearchLimits l;
  l.max_ms = int(std::max<int64_t>(MIN_SEARCH_MS, budget - since()));
  l.max_nodes = opts_.max_nodes;
  ThinkInfo t;
  const Position& pos = g.game.pos();
  Color us = pos.side_to_move();
  try {
    m = e.think(pos, l, {}, nullptr, &t);
  } catch (const std::exception& ex) {  // this game's engine failed (e.g. the network): the server goes on
    return fail = error(500, std::string("the engine failed: ") + ex.what()), false;
  }
  const int64_t think_ms = since();  // from the request: the waiting counts against the limit
  if (m.is_none()) return fail = error(409, "no legal move"), false;
  json pv = json::array(), pv_text = line_json(pos, t.pv, &pv);
  int sign = us == CHO ? 1 : -1;
  json wdl = us == CHO ? json{t.wdl[0], t.wdl[1], t.wdl[2]} : json{t.wdl[2], t.wdl[1], t.wdl[0]};
  g.eval = {{"cp", sign * t.score_cp},
            {"mate", sign * t.mate},
            {"wdl", wdl},
            {"depth", t.depth},
            {"nodes", t.nodes},
            {"nps", t.nps},
            {"pv", pv},
            {"pv_notation", pv_text},  // the game's own notation (Korean, or Chinese)
            {"by", level},
            {"network", t.network},
            {"side", color_name(us)},
            {"think_ms", think_ms},  // from the request to the move, against the level's limit
            {"limit_ms", find_web_level(level, true)->limit_ms}};
  return true;
}

ApiReply GameStore::engine_move(const std::string& body) {
  const auto request = std::chrono::steady_clock::now();  // the level's limit counts from here
  json j;
  ApiReply fail;
  std::string id, level;
  if (!parse_body(body, j, fail) || !get_string(j, "id", id, true, fail) || !get_string(j, "level", level, false, fail))
    return fail;
  std::unique_lock<std::mutex> lock;
  auto g = live_game(id, lock, fail);
  if (!g) return fail;
  if (level.empty()) level = g->level;
  const bool for_person = is_human(g->human, g->game.pos().side_to_move());
  Move m;
  if (!search(*g, level, request, m, fail)) return fail;
  if (for_person) unrank(g->rank, "the engine moved for you");
  if (level != g->level) unrank(g->rank, "another level moved");
  json out = move_json(g->game.pos(), m);
  std::string err;
  if (!g->game.play(m, &err)) return error(500, "engine produced an illegal move: " + err);
  record_if_finished(g->game, g->id, g->level, g->human, g->rank, db_.get());
  out["move"] = out["uci"];
  out["eval"] = shown_eval(*g);
  out["state"] = state_json(*g);
  return reply(200, out);
}

ApiReply GameStore::hint(const std::string& body) {
  const auto request = std::chrono::steady_clock::now();  // the level's limit counts from here
  json j;
  ApiReply fail;
  std::string id;
  if (!parse_body(body, j, fail) || !get_string(j, "id", id, true, fail)) return fail;
  std::unique_lock<std::mutex> lock;
  auto g = live_game(id, lock, fail);
  if (!g) return fail;
  if (!is_human(g->human, g->game.pos().side_to_move())) return error(409, "it is the engine's turn");
  Move m;
  if (!search(*g, g->level, request, m, fail)) return fail;
  unrank(g->rank, "a hint was shown");
  json out = move_json(g->game.pos(), m);
  out["hint"] = out["uci"];
  out["eval"] = shown_eval(*g);
  out["state"] = state_json(*g);
  return reply(200, out);
}

ApiReply GameStore::undo(const std::string& body) {
  json j;
  ApiReply fail;
  std::string id;
  if (!parse_body(body, j, fail) || !get_string(j, "id", id, true, fail)) return fail;
  int plies = 0;  // 0: back to the last position where a person was to move
  if (j.contains("plies")) {
    if (!j["plies"].is_number_integer() || j["plies"].get<int64_t>() < 1 || j["plies"].get<int64_t>() > 10000)
      return error(400, "plies must be an integer 1..10000");
    plies = j["plies"].get<int>();
  }
  auto g = find(id);
  if (!g) return error(404, "unknown game '" + id + "'");
  std::lock_guard<std::mutex> lock(g->mutex);
  // A finished game stays finished: its result may already be on a player's record.
  if (g->game.over()) return error(409, "the game is over: " + g->game.result().str());
  if (g->game.ply() == 0) return error(409, "nothing to undo");
  if (plies) {
    g->game.undo(plies);
  } else {
    g->game.undo(1);
    while (g->game.ply() > 0 && !is_human(g->human, g->game.pos().side_to_move())) g->game.undo(1);
  }
  g->eval = nullptr;
  unrank(g->rank, "a move was taken back");
  return reply(200, state_json(*g));
}

ApiReply GameStore::resign(const std::string& body) {
  json j;
  ApiReply fail;
  std::string id;
  if (!parse_body(body, j, fail) || !get_string(j, "id", id, true, fail)) return fail;
  std::unique_lock<std::mutex> lock;
  auto g = live_game(id, lock, fail);
  if (!g) return fail;
  // A person resigns their own side; with two people (or none) the side to move does.
  Color c = g->human == "cho" ? CHO : g->human == "han" ? HAN : g->game.pos().side_to_move();
  g->game.resign(c);
  record_if_finished(g->game, g->id, g->level, g->human, g->rank, db_.get());
  return reply(200, state_json(*g));
}

ApiReply GameStore::record(const std::string& id, std::string* filename) {
  auto g = find(id);
  if (!g) return error(404, "unknown game '" + id + "'");
  std::lock_guard<std::mutex> lock(g->mutex);
  if (filename) *filename = std::string(game_name(g->game.pos().game())) + "-" + id + ".json";
  return {200, g->game.to_json()};
}

}  // namespace jz
