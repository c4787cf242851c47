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
#include "web/levels.h"
#include "web/player_db.h"
#include "web/players_api.h"
#include "web/ranking.h"

namespace jz {

using json = nlohmann::json;

struct GameStore::WebGame {
  std::mutex mutex;
  std::string id;
  Game game;
  std::string human = "cho";           // cho, han, both, none
  std::string level = "expert";        // easy, normal, expert, net (new games: ServerOptions::default_level)
  std::unique_ptr<PlayEngine> engine;  // made on the first engine move
  json eval;                           // last engine report, Cho's view
  RankInfo rank;                       // player, ranked or not, stored once finished (web/ranking.h)
  uint64_t last_used = 0;
  int seen_ply = -1;  // the ply when forfeit_idle last looked, and since when it has stood
  std::chrono::steady_clock::time_point seen_since{};
};

namespace {

// Strings from requests (ids, move text, FENs) may be any bytes: invalid UTF-8 is sent as U+FFFD
// rather than making dump() throw.
ApiReply reply(int status, const json& j) { return {status, j.dump(-1, ' ', false, json::error_handler_t::replace)}; }
ApiReply error(int status, const std::string& msg) { return reply(status, json{{"error", msg}}); }

const char* LETTERS = ".KABNRCP";

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

// The engine's report as the page may show it: during a ranked game only who answered and how
// long it took (no score, line or evaluation: they would be hints); all of it once the game is over.
json shown_eval(const GameStore::WebGame& g) {
  if (!g.eval.is_object() || !g.rank.ranked || g.game.over()) return g.eval;
  json out = {{"hidden", true}};
  for (const char* k : {"by", "side", "network", "think_ms", "limit_ms"})
    if (g.eval.contains(k)) out[k] = g.eval[k];
  return out;
}

json state_json(const GameStore::WebGame& g) {
  const Position& pos = g.game.pos();
  json j;
  j["id"] = g.id;
  j["rules"] = ruleset_name(g.game.rules());
  j["rule_options"] = rule_options_str(g.game.options());
  j["setup"] = g.game.setup();
  j["start_fen"] = g.game.start_fen();
  j["fen"] = pos.fen();
  j["turn"] = color_name(pos.side_to_move());
  j["ply"] = g.game.ply();
  j["human"] = g.human;
  j["level"] = g.level;
  j["in_check"] = pos.in_check();
  j["bikjang"] = pos.in_bikjang();
  json pieces = json::array();
  for (int s = 0; s < SQUARE_NB; ++s) {
    Piece p = pos.piece_on(Square(s));
    if (!p) continue;
    pieces.push_back({{"sq", square_name(Square(s))},
                      {"file", file_of(Square(s))},
                      {"rank", rank_of(Square(s))},
                      {"color", color_name(color_of(p))},
                      {"type", std::string(1, LETTERS[type_of(p)])},
                      {"hanja", piece_name_hanja(p)},
                      {"hangul", piece_name_hangul(p)}});
  }
  j["pieces"] = pieces;
  json moves = json::array();
  auto kor = g.game.korean_moves();
  auto hanja = g.game.korean_moves(true);
  for (size_t i = 0; i < kor.size(); ++i)
    moves.push_back({{"uci", move_to_uci(g.game.moves()[i])}, {"korean", kor[i]}, {"hanja", hanja[i]}});
  j["moves"] = moves;
  GameResult r = g.game.result();
  j["result"] = {{"over", r.over()},
                 {"text", r.str()},
                 {"winner", winner_word(r.winner)},
                 {"ending", r.over() ? ending_name(r.ending) : ""},
                 {"by_counting", r.by_counting}};
  if (r.by_counting)  // the count as the rules make it: Han gets 1.5 points for moving second
    j["result"]["count"] = {{"cho", g.game.pos().material(CHO)}, {"han", g.game.pos().material(HAN) + 1.5}};
  json legal = json::object(), promotions = json::object();
  j["pass"] = nullptr;
  if (!r.over()) {
    MoveList list;
    generate_legal(pos, list);
    for (Move m : list) {
      if (m.is_pass()) {
        j["pass"] = move_to_uci(m);
      } else if (m.promotion() != NO_PIECE_TYPE) {  // soldier-promotion: the page asks which piece
        promotions[square_name(m.from()) + square_name(m.to())].push_back(move_to_uci(m));
      } else {
        legal[square_name(m.from())].push_back(square_name(m.to()));
      }
    }
  }
  j["legal"] = legal;
  j["promotions"] = promotions;
  j["last_move"] = g.game.ply() ? json(move_to_uci(g.game.moves().back())) : json(nullptr);
  j["eval"] = shown_eval(g);
  j["rank"] = rank_json(g.rank);
  return j;
}

}  // namespace

GameStore::GameStore(const ServerOptions& opts, std::shared_ptr<Evaluator> net)
    : opts_(opts),
      net_(std::move(net)),
      analyzer_(AnalysisOptions{opts.analysis_nodes}),
      id_state_(std::random_device{}() ^ (uint64_t(std::random_device{}()) << 32) ^
                uint64_t(std::chrono::steady_clock::now().time_since_epoch().count())),
      slots_(std::make_unique<EngineSlots>(opts.engine_slots > 0 ? opts.engine_slots
                                                                 : int(std::max(1u, std::thread::hardware_concurrency())))) {
  const std::string& d = opts_.default_level;
  if ((d == "net" && !net_) || (d != "easy" && d != "normal" && d != "expert" && d != "net"))
    opts_.default_level = "expert";
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

ApiReply GameStore::info() const {
  json levels = {"easy", "normal", "expert"};
  if (net_) levels.push_back("net");
  json setups = json::array();
  for (int i = 0; i < 4; ++i) setups.push_back(wing_setup_name(WingSetup(i)));
  json rules = json::array();
  for (int i = 0; i < JANGGI_RULESET_NB; ++i) rules.push_back(ruleset_name(Ruleset(i)));  // Xiangqi: issue 44
  json rule_options = json::array();
  for (int i = 0; i < RULE_OPTION_NB; ++i) rule_options.push_back(rule_option_name(i));
  return reply(200, {{"levels", levels},
                     {"setups", setups},
                     {"rules", rules},
                     {"rule_options", rule_options},
                     {"network", net_ ? json(net_->id()) : json(nullptr)},
                     {"max_think_ms", opts_.max_think_ms},
                     {"default_level", opts_.default_level},
                     {"default_reason", opts_.default_reason},
                     {"level_info", web_levels_json(net_ != nullptr, net_ ? net_->id() : "", opts_.network_strength)},
                     {"ranked_rule", RANKED_RULE},
                     {"abandon_minutes", (opts_.abandon_seconds + 59) / 60},
                     {"players", db_ != nullptr}});
}

ApiReply GameStore::new_game(const std::string& body) {
  json j;
  ApiReply fail;
  if (!parse_body(body, j, fail)) return fail;
  std::string rules_s = "janggi", cho = "inner", han = "inner", human = "cho", level = opts_.default_level, fen,
              options_s;
  if (!get_string(j, "rules", rules_s, false, fail) || !get_string(j, "rule_options", options_s, false, fail) ||
      !get_string(j, "cho_setup", cho, false, fail) || !get_string(j, "han_setup", han, false, fail) ||
      !get_string(j, "human", human, false, fail) || !get_string(j, "level", level, false, fail) ||
      !get_string(j, "fen", fen, false, fail))
    return fail;
  Ruleset rules;
  if (!parse_ruleset(rules_s, rules)) return error(400, "unknown rules '" + rules_s + "'");
  if (game_of(rules) != GameKind::JANGGI) return error(400, "rules " + rules_s + ": the page plays janggi only so far");
  RuleOptions options;
  std::string err;
  if (!parse_rule_options(options_s, options, &err)) return error(400, err);
  if (human != "cho" && human != "han" && human != "both" && human != "none")
    return error(400, "human must be cho, han, both or none");
  if (level != "easy" && level != "normal" && level != "expert" && level != "net")
    return error(400, "level must be easy, normal, expert or net");
  if (level == "net" && !net_) return error(400, "no network is loaded: choose easy, normal or expert");
  RankInfo rank;
  if (!get_string(j, "player", rank.player, false, fail)) return fail;
  if (j.contains("ranked") && !j["ranked"].is_boolean()) return error(400, "field 'ranked' must be true or false");
  rank.ranked = j.value("ranked", false);
  if (!rank.player.empty()) {
    std::string why;
    if (!db_) return error(400, "this server keeps no players (start it with --data-dir)");
    if (!PlayerDb::valid_name(rank.player, &why)) return error(400, why);
  }
  if (rank.ranked && rank.player.empty()) return error(400, "a ranked game needs a player name");
  if (rank.ranked && options.any()) return error(400, "a ranked game is played without rule options");
  if (Ruleset r0; rank.ranked && parse_ruleset(rules_s, r0)) {
    std::string why;
    if (!ranked_start_ok(!fen.empty(), r0, human, &why)) return error(400, why);
  }
  auto g = std::make_shared<WebGame>();
  bool ok = fen.empty() ? g->game.start_setup(cho + "-" + han, rules, options, &err)
                        : g->game.start(fen, rules, options, &err);
  if (!ok) return error(400, err);
  if (level == "net" && !network_accepts(*net_, g->game.pos(), &err)) return error(400, err);
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
        moves.push_back({{"uci", move_to_uci(m)}, {"korean", move_to_korean(g->game.pos(), m)}});
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
  if (level == "net" && !net_) return fail = error(400, "no network is loaded"), false;
  if (!g.engine) {
    g.engine = std::make_unique<PlayEngine>(opts_.hash_mb);
    g.engine->set_simulations(opts_.simulations);
  }
  PlayEngine& e = *g.engine;
  std::string err;
  e.set_network(level == "net" ? net_ : nullptr, &err);
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
  json pv = json::array(), pv_kor = json::array();
  Position p = pos;
  for (Move x : t.pv) {
    if (!is_legal(p, x)) break;
    pv.push_back(move_to_uci(x));
    pv_kor.push_back(move_to_korean(p, x));
    p.do_move(x);
  }
  int sign = us == CHO ? 1 : -1;
  json wdl = us == CHO ? json{t.wdl[0], t.wdl[1], t.wdl[2]} : json{t.wdl[2], t.wdl[1], t.wdl[0]};
  g.eval = {{"cp", sign * t.score_cp},
            {"mate", sign * t.mate},
            {"wdl", wdl},
            {"depth", t.depth},
            {"nodes", t.nodes},
            {"nps", t.nps},
            {"pv", pv},
            {"pv_korean", pv_kor},
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
  std::string kor;
  if (!search(*g, level, request, m, fail)) return fail;
  if (for_person) unrank(g->rank, "the engine moved for you");
  if (level != g->level) unrank(g->rank, "another level moved");
  kor = move_to_korean(g->game.pos(), m);
  std::string err;
  if (!g->game.play(m, &err)) return error(500, "engine produced an illegal move: " + err);
  record_if_finished(g->game, g->id, g->level, g->human, g->rank, db_.get());
  json out = {{"move", move_to_uci(m)}, {"korean", kor}, {"eval", shown_eval(*g)}, {"state", state_json(*g)}};
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
  json out = {{"hint", move_to_uci(m)}, {"korean", move_to_korean(g->game.pos(), m)}, {"eval", shown_eval(*g)},
              {"state", state_json(*g)}};
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
  if (filename) *filename = "janggi-" + id + ".json";
  return {200, g->game.to_json()};
}

}  // namespace jz
