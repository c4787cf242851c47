#include "records/importer.h"

#include <algorithm>
#include <filesystem>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/setups.h"
#include "records/gib.h"
#include "records/pgn.h"
#include "records/text_decode.h"
#include "replay/game_record.h"
#include "util/fileio.h"

namespace jz {

namespace {

std::string extension(const std::string& path) {
  std::string e = std::filesystem::path(path).extension().string();
  for (char& c : e) c = char(std::tolower((unsigned char)c));
  return e;
}

RecordFormat sniff(const std::string& name, const std::string& text) {
  std::string e = extension(name);
  if (e == ".gib") return RecordFormat::GIB;
  if (e == ".pgn") return RecordFormat::PGN;
  if (e == ".jsonl" || e == ".json") return RecordFormat::JSONL;
  size_t a = text.find_first_not_of(" \t\n");
  if (a != std::string::npos && text[a] == '{') return RecordFormat::JSONL;
  if (text.find("[Variant ") != std::string::npos || text.find("[Event ") != std::string::npos)
    return RecordFormat::PGN;
  return RecordFormat::GIB;
}

std::vector<ParsedGame> read_jsonl(const std::string& text) {
  std::vector<ParsedGame> out;
  size_t at = 0;
  int line_no = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(at, nl - at);
    at = nl + 1;
    ++line_no;
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    ParsedGame g;
    g.index = int(out.size());
    GameRecord rec;
    int bad = -1;
    if (!game_from_json(line, rec, &bad, &g.error)) {
      g.error_ply = bad;
    } else {
      g.start_fen = rec.start_fen;
      g.ruleset = rec.ruleset;
      for (const PlyRecord& p : rec.plies) g.moves.push_back(p.move);
      g.winner = rec.winner;
      g.ending = rec.ending;
      g.by_counting = rec.by_counting();
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace

std::string describe_result(Winner winner, Ending ending, bool by_counting) {
  std::string s = winner == Winner::CHO    ? "Cho wins"
                  : winner == Winner::HAN  ? "Han wins"
                  : winner == Winner::DRAW ? "Draw"
                                           : "No result";
  if (ending != Ending::NONE) s += std::string(" by ") + ending_name(ending);
  if (by_counting) s += " (counting)";
  return s;
}

bool parse_record_format(const std::string& s, RecordFormat& out) {
  if (s == "auto")
    out = RecordFormat::AUTO;
  else if (s == "gib")
    out = RecordFormat::GIB;
  else if (s == "pgn")
    out = RecordFormat::PGN;
  else if (s == "jsonl")
    out = RecordFormat::JSONL;
  else
    return false;
  return true;
}

namespace {

// Why a record is refused, and the ply (-1: the game as a whole).
struct Refusal {
  std::string why;
  int ply = -1;
};
bool refuse(Refusal& r, std::string why, int ply) {
  r = {std::move(why), ply};
  return false;
}

// Plays the record's moves from pos, keeping each ply's legal moves in legal[0..n] (n: after the last).
bool replay_moves(const ParsedGame& g, Position& pos, std::vector<MoveList>& legal, Refusal& r) {
  int n = int(g.moves.size());
  for (int i = 0; i < n; ++i) {
    generate_legal(pos, legal[i]);
    GameResult res = game_result(pos, legal[i].size);
    if (res.over()) return refuse(r, "the game was already over (" + res.str() + ") before this move", i);
    if (!legal[i].contains(g.moves[i])) return refuse(r, "illegal move " + move_to_uci(g.moves[i]), i);
    pos.do_move(g.moves[i]);
  }
  generate_legal(pos, legal[n]);
  return true;
}

// The game's result: the rules' where the final position ends the game (the record must agree), else
// the record's, where an ending the rules decide is refused and a length cap is decided by counting.
bool final_result(const ParsedGame& g, const Position& pos, const MoveList& legal, GameResult& res, Refusal& r) {
  int n = int(g.moves.size());
  GameResult actual = game_result(pos, legal.size);
  res = {g.winner, g.ending, g.by_counting};
  if (actual.over()) {
    if (g.winner != Winner::NONE && g.winner != actual.winner)
      return refuse(r,
                    "the record says " + describe_result(g.winner, g.ending, false) + " but the rules give " +
                        describe_result(actual.winner, actual.ending, actual.by_counting),
                    n);
    res = actual;
    return true;
  }
  if (g.winner == Winner::NONE) return refuse(r, "no result (a game needs one for its value target)", -1);
  if (rules_ending(g.ending))
    return refuse(r, std::string("the record says ") + ending_name(g.ending) + " but the game is not over", n);
  if ((g.ending == Ending::RESIGNATION || g.ending == Ending::TIME) && g.winner == Winner::DRAW)
    return refuse(r, "a draw by resignation or time", -1);
  if (g.ending == Ending::LENGTH_CAP) {
    GameResult d = decide(pos, Ending::LENGTH_CAP);
    if (d.winner != g.winner) return refuse(r, "length-cap result differs from counting", n);
    res = d;
  }
  return true;
}

// The policy target of a ply: the move played, or with smoothing a uniform share over at most 256
// entries (the format's limit), the played move first.
void ply_target(Move played, const MoveList& l, float smoothing, std::vector<std::pair<Move, float>>& target) {
  target.clear();
  if (smoothing <= 0 || l.size <= 1) {
    target.push_back({played, 1.f});
    return;
  }
  int k = std::min(l.size, 256);
  float each = smoothing / float(k);
  target.push_back({played, 1.f - smoothing + each});
  for (int j = 0; j < l.size && int(target.size()) < k; ++j)
    if (l[j] != played) target.push_back({l[j], each});
}

// The replay game: header from the record and its result, one ply per move with the result as its
// value target (W/D/L from the mover's view).
void fill_record(const ParsedGame& g, float smoothing, const std::string& origin, const GameResult& res,
                 const Position& final_pos, const std::vector<MoveList>& legal, GameRecord& out) {
  int n = int(g.moves.size());
  out = GameRecord();
  out.start_fen = g.start_fen;
  out.ruleset = g.ruleset;
  for (int s = 0; s < SETUP_NB; ++s)
    if (setup_fen(s) == g.start_fen) out.setup = uint8_t(s);
  out.source = GameSource::IMPORT;
  out.origin = origin;
  out.winner = res.winner;
  out.ending = res.ending;
  out.flags = res.by_counting ? GAME_FLAG_BY_COUNTING : 0;
  out.final_margin = int16_t(material_margin(final_pos));
  out.plies.reserve(n);
  std::vector<std::pair<Move, float>> target;
  Position start;
  start.set_fen(g.start_fen, g.ruleset, nullptr);
  Color side = start.side_to_move();
  for (int i = 0; i < n; ++i, side = ~side) {
    float wdl[3] = {0, 1, 0};
    if (res.winner == Winner::CHO || res.winner == Winner::HAN) {
      bool won = res.winner == winner_of(side);
      wdl[0] = won ? 1.f : 0.f;
      wdl[1] = 0;
      wdl[2] = won ? 0.f : 1.f;
    }
    ply_target(g.moves[i], legal[i], smoothing, target);
    out.add_ply(g.moves[i], true, wdl, target);
  }
}

}  // namespace

bool make_training_game(const ParsedGame& g, float smoothing, const std::string& origin, GameRecord& out, int* bad_ply,
                        std::string* error) {
  auto fail = [&](const std::string& why, int ply) {
    if (bad_ply) *bad_ply = ply;
    if (error) *error = why;
    return false;
  };
  if (!g.ok()) return fail(g.error, g.error_ply);
  Position pos;
  std::string why;
  if (!pos.set_fen(g.start_fen, g.ruleset, &why)) return fail("bad start position: " + why, -1);
  // One legal-move list per ply, reused across games (the policy target needs them after the result).
  thread_local std::vector<MoveList> legal;
  if (legal.size() < g.moves.size() + 1) legal.resize(g.moves.size() + 1);
  Refusal r;
  GameResult res;
  if (!replay_moves(g, pos, legal, r) || !final_result(g, pos, legal[g.moves.size()], res, r))
    return fail(r.why, r.ply);
  fill_record(g, smoothing, origin, res, pos, legal, out);
  // The trainer's buffer drops a whole chunk for one game it rejects: check with its own test.
  if (!validate_game(out, &why)) return fail("not a valid replay game: " + why, -1);
  return true;
}

bool read_record_bytes(const std::string& name, const std::string& bytes, const ImportOptions& o,
                       std::vector<ParsedGame>& games, std::string* error) {
  std::string text;
  if (!decode_record_text(bytes, text, nullptr, error)) return false;
  RecordFormat f = o.format == RecordFormat::AUTO ? sniff(name, text) : o.format;
  if (f == RecordFormat::GIB)
    games = read_gib(text, o.gib_rules);
  else if (f == RecordFormat::PGN)
    games = read_pgn(text);
  else
    games = read_jsonl(text);
  return true;
}

bool read_record_file(const std::string& path, const ImportOptions& o, std::vector<ParsedGame>& games,
                      std::string* error) {
  std::string bytes;
  if (!read_file(path, bytes, error)) return false;
  return read_record_bytes(path, bytes, o, games, error);
}

std::vector<std::string> list_record_files(const std::vector<std::string>& paths, std::vector<std::string>* missing) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) {
      out.push_back(p);
      continue;
    }
    if (!fs::is_directory(p, ec)) {
      if (missing) missing->push_back(p);
      continue;
    }
    std::vector<std::string> found;
    fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      std::error_code ec2;
      std::string e = extension(it->path().string());
      if (it->is_regular_file(ec2) && (e == ".gib" || e == ".pgn" || e == ".jsonl"))
        found.push_back(it->path().string());
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

Importer::Importer(ImportOptions options, Sink sink, Report report)
    : options_(options), sink_(std::move(sink)), report_(std::move(report)) {}

bool Importer::import_file(const std::string& path, std::string* error) {
  std::string bytes, why;
  if (!read_file(path, bytes, &why)) {
    ++stats_.files;
    ++stats_.bad_files;
    report_(path + ": skipped: " + why);
    return true;
  }
  return import_bytes(path, bytes, error);
}

bool Importer::import_bytes(const std::string& name, const std::string& bytes, std::string* error) {
  ++stats_.files;
  std::vector<ParsedGame> games;
  std::string why;
  if (!read_record_bytes(name, bytes, options_, games, &why)) {
    ++stats_.bad_files;
    report_(name + ": skipped: " + why);
    return true;
  }
  return import_games(name, games, error);
}

bool Importer::import_games(const std::string& name, const std::vector<ParsedGame>& games, std::string* error) {
  std::string base = std::filesystem::path(name).filename().string();
  for (const ParsedGame& g : games) {
    ++stats_.games_read;
    GameRecord rec;
    int ply = -1;
    std::string why;
    if (!make_training_game(g, options_.label_smoothing, base + "#" + std::to_string(g.index), rec, &ply, &why)) {
      ++stats_.skipped;
      report_(name + ": game " + std::to_string(g.index + 1) + ", " +
              (ply < 0 ? std::string("header") : "ply " + std::to_string(ply + 1)) + ": skipped: " + why);
      continue;
    }
    int plies = rec.num_plies();
    if (!sink_(std::move(rec), error)) return false;
    ++stats_.imported;
    stats_.positions += plies;
  }
  return true;
}

}  // namespace jz
