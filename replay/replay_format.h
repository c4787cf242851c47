// Replay chunk format (version 2; version 1 still reads): finished games (self-play or imported), zstd-compressed,
// CRC-checked. Byte layout and rationale: replay/README.md. Positions are not stored; they are rebuilt by replaying
// the moves through the rules core, so the history the encoder sees is exact.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/rules.h"
#include "core/types.h"

namespace jz {

constexpr char CHUNK_MAGIC[8] = {'J', 'Z', 'R', 'E', 'P', 'L', 'A', 'Y'};
constexpr uint16_t CHUNK_VERSION = 2;  // written; 1 still reads (no source/origin)
constexpr uint16_t CHUNK_VERSION_MIN = 1;
constexpr size_t CHUNK_HEADER_SIZE = 48;
constexpr size_t CHUNK_TRAILER_SIZE = 4;  // CRC32 over header + payload
constexpr uint16_t CHUNK_FLAG_ZSTD = 1;
constexpr const char* CHUNK_EXTENSION = ".jzc";
// Limits that a valid file never exceeds; anything larger is treated as corrupt.
constexpr uint64_t CHUNK_MAX_UNCOMPRESSED = 1ull << 31;
constexpr int SETUP_CUSTOM = 255;  // start position was not one of the 16 setups

// Probabilities are stored as uint16 (p * 65535, rounded).
inline uint16_t quantize_prob(float p) {
  if (!(p > 0)) return 0;
  if (p >= 1) return 65535;
  return uint16_t(p * 65535.0f + 0.5f);
}
inline float dequantize_prob(uint16_t q) { return float(q) / 65535.0f; }

struct PolicyEntry {
  Move move;
  uint16_t prob = 0;  // quantized
};

// One ply: the move played and what the search said about the position before it.
struct PlyRecord {
  Move move;
  bool full_search = false;         // a full search whose visit distribution is a policy target
  uint16_t wdl[3] = {0, 65535, 0};  // root W/D/L for the side to move, quantized
  uint32_t policy_begin = 0;        // index into GameRecord::policy
  uint16_t policy_size = 0;         // 0 for a cheap search that stored no target
  float q() const { return dequantize_prob(wdl[0]) - dequantize_prob(wdl[2]); }
};

// Game flags.
constexpr uint8_t GAME_FLAG_BY_COUNTING = 1;   // result decided by counting
constexpr uint8_t GAME_FLAG_NO_RESIGN = 2;     // resignation disabled (false-resignation probe)
constexpr uint8_t GAME_FLAG_WOULD_RESIGN = 4;  // in a probe game, would_resign says who would have resigned
// A branch off a game (teacher/relabel.h): no result of its own (stored as a draw), only its searched plies are
// samples, and their value target is the search's alone.
constexpr uint8_t GAME_FLAG_BRANCH = 8;

// Where a game came from (version 2; version-1 games read as SELFPLAY).
enum class GameSource : uint8_t { SELFPLAY = 0, IMPORT = 1, TEACHER = 2 };
constexpr int GAME_SOURCE_NB = 3;
const char* game_source_name(GameSource s);  // "selfplay", "import", "teacher"

struct GameRecord {
  std::string start_fen;
  Ruleset ruleset = Ruleset::JANGGI;
  uint8_t setup = SETUP_CUSTOM;  // 0..15 (core/setups.h) or SETUP_CUSTOM
  uint64_t seed = 0;
  std::string network_id;
  GameSource source = GameSource::SELFPLAY;
  std::string origin;  // imported games: "<file>#<game index>"; empty for self-play
  Winner winner = Winner::NONE;
  Ending ending = Ending::NONE;
  uint8_t flags = 0;
  Color would_resign = NO_COLOR;  // see GAME_FLAG_WOULD_RESIGN
  int16_t final_margin = 0;       // Cho's material minus Han's at the end (no 1.5 bonus)
  std::vector<PlyRecord> plies;
  std::vector<PolicyEntry> policy;  // all plies' targets back to back

  bool by_counting() const { return flags & GAME_FLAG_BY_COUNTING; }
  GameResult result() const { return GameResult{winner, ending, by_counting()}; }
  int num_plies() const { return int(plies.size()); }
  // Appends a ply with its policy target (pairs may be empty for a cheap search).
  void add_ply(Move move, bool full_search, const float wdl[3], const std::vector<std::pair<Move, float>>& target);
};

struct ChunkHeader {
  uint16_t version = CHUNK_VERSION;
  uint16_t flags = CHUNK_FLAG_ZSTD;
  uint32_t game_count = 0;
  uint32_t position_count = 0;  // sum of plies
  uint64_t created_ms = 0;      // unix time in ms when the chunk was written (orders the window)
  uint64_t uncompressed_size = 0;
  uint64_t payload_size = 0;  // bytes that follow the header (before the CRC trailer)
};

// Serializes games into a complete chunk file image (header, compressed payload, CRC). version 1
// (tests of old files only) drops source and origin.
std::string encode_chunk(const std::vector<GameRecord>& games, uint64_t created_ms, int zstd_level = 3,
                         uint16_t version = CHUNK_VERSION);
// Parses only the header (cheap directory scans). False with a reason if it is not a v1/v2 header.
bool decode_chunk_header(const std::string& bytes, ChunkHeader& header, std::string* error);
// Parses and validates a whole chunk image: CRC, sizes, decompression, every field's range.
// Does not replay moves (see validate_game in game_record.h).
bool decode_chunk(const std::string& bytes, ChunkHeader& header, std::vector<GameRecord>& games, std::string* error);

}  // namespace jz
