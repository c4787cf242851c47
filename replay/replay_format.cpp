#include "replay/replay_format.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "util/fileio.h"

namespace jz {

namespace {

// Little-endian writer/reader, byte by byte so the format does not depend on the host.
struct Out {
  std::string& s;
  void u8(uint32_t v) { s.push_back(char(v & 0xFF)); }
  void u16(uint32_t v) {
    u8(v);
    u8(v >> 8);
  }
  void u32(uint32_t v) {
    u16(v);
    u16(v >> 16);
  }
  void u64(uint64_t v) {
    u32(uint32_t(v));
    u32(uint32_t(v >> 32));
  }
  void bytes(const std::string& b) { s.append(b); }
};

struct In {
  const uint8_t* p;
  size_t left;
  bool ok = true;
  bool need(size_t n) {
    if (left < n) ok = false;
    return ok;
  }
  uint32_t u8() {
    if (!need(1)) return 0;
    --left;
    return *p++;
  }
  uint32_t u16() {
    uint32_t a = u8();
    return a | (u8() << 8);
  }
  uint32_t u32() {
    uint32_t a = u16();
    return a | (u16() << 16);
  }
  uint64_t u64() {
    uint64_t a = u32();
    return a | (uint64_t(u32()) << 32);
  }
  std::string bytes(size_t n) {
    if (!need(n)) return {};
    std::string r(reinterpret_cast<const char*>(p), n);
    p += n;
    left -= n;
    return r;
  }
};

bool valid_square_move(uint16_t raw) {
  Move m;
  m.raw = raw;
  return raw < (1u << 14) && m.from() < SQUARE_NB && m.to() < SQUARE_NB;
}

void encode_game(const GameRecord& g, std::string& s, uint16_t version) {
  size_t at = s.size();
  Out o{s};
  o.u32(0);  // record size, patched below
  o.u8(uint8_t(g.ruleset));
  o.u8(g.setup);
  o.u8(uint8_t(g.winner));
  o.u8(uint8_t(g.ending));
  o.u8(g.flags);
  o.u8(uint8_t(g.would_resign));
  o.u16(uint16_t(g.final_margin));
  o.u64(g.seed);
  o.u16(uint32_t(g.start_fen.size()));
  o.bytes(g.start_fen);
  o.u16(uint32_t(g.network_id.size()));
  o.bytes(g.network_id);
  if (version >= 2) {
    o.u8(uint8_t(g.source));
    o.u16(uint32_t(std::min<size_t>(g.origin.size(), 65535)));
    o.bytes(g.origin.substr(0, 65535));
  }
  o.u32(uint32_t(g.plies.size()));
  for (const PlyRecord& p : g.plies) {
    o.u16(p.move.raw);
    o.u8(p.full_search ? 1 : 0);
    o.u8(0);
    o.u16(p.wdl[0]);
    o.u16(p.wdl[1]);
    o.u16(p.wdl[2]);
    o.u16(p.policy_size);
    for (int i = 0; i < p.policy_size; ++i) {
      const PolicyEntry& e = g.policy[p.policy_begin + i];
      o.u16(e.move.raw);
      o.u16(e.prob);
    }
  }
  uint32_t size = uint32_t(s.size() - at - 4);
  for (int i = 0; i < 4; ++i) s[at + i] = char((size >> (8 * i)) & 0xFF);
}

bool decode_game(In& in, GameRecord& g, uint16_t version, std::string* error) {
  auto fail = [&](const char* why) {
    if (error) *error = why;
    return false;
  };
  uint32_t size = in.u32();
  if (!in.ok || size > in.left) return fail("game record runs past the payload");
  In r{in.p, size};
  in.p += size;
  in.left -= size;
  uint32_t rules = r.u8(), setup = r.u8(), winner = r.u8(), ending = r.u8();
  g.flags = uint8_t(r.u8());
  uint32_t would = r.u8();
  g.final_margin = int16_t(r.u16());
  g.seed = r.u64();
  g.start_fen = r.bytes(r.u16());
  g.network_id = r.bytes(r.u16());
  uint32_t source = 0;
  g.origin.clear();
  if (version >= 2) {
    source = r.u8();
    g.origin = r.bytes(r.u16());
  }
  uint32_t plies = r.u32();
  if (!r.ok) return fail("truncated game header");
  if (rules >= RULESET_NB) return fail("bad rule set");
  if (setup >= 16 && setup != SETUP_CUSTOM) return fail("bad setup index");
  if (winner > uint32_t(Winner::DRAW)) return fail("bad winner");
  if (ending >= uint32_t(ENDING_NB)) return fail("bad ending");
  if (would > NO_COLOR) return fail("bad would-resign color");
  if (source >= GAME_SOURCE_NB) return fail("bad game source");
  if (g.start_fen.empty()) return fail("empty start FEN");
  if (plies > r.left / 12) return fail("ply count exceeds the record size");
  g.ruleset = Ruleset(rules);
  g.setup = uint8_t(setup);
  g.winner = Winner(winner);
  g.ending = Ending(ending);
  g.would_resign = Color(would);
  g.source = GameSource(source);
  g.plies.resize(plies);
  g.policy.clear();
  for (PlyRecord& p : g.plies) {
    p.move.raw = uint16_t(r.u16());
    uint32_t flags = r.u8();
    r.u8();
    for (int k = 0; k < 3; ++k) p.wdl[k] = uint16_t(r.u16());
    uint32_t n = r.u16();
    if (!r.ok) return fail("truncated ply");
    if (!valid_square_move(p.move.raw)) return fail("bad move");
    if (flags > 1) return fail("bad ply flags");
    if (n > 256 || n * 4 > r.left) return fail("bad policy size");
    p.full_search = flags & 1;
    p.policy_begin = uint32_t(g.policy.size());
    p.policy_size = uint16_t(n);
    for (uint32_t i = 0; i < n; ++i) {
      PolicyEntry e;
      e.move.raw = uint16_t(r.u16());
      e.prob = uint16_t(r.u16());
      if (!valid_square_move(e.move.raw)) return fail("bad policy move");
      g.policy.push_back(e);
    }
  }
  if (r.left != 0) return fail("trailing bytes in game record");
  return true;
}

}  // namespace

const char* game_source_name(GameSource s) {
  switch (s) {
    case GameSource::IMPORT:
      return "import";
    case GameSource::TEACHER:
      return "teacher";
    default:
      return "selfplay";
  }
}

void GameRecord::add_ply(Move move, bool full_search, const float wdl[3],
                         const std::vector<std::pair<Move, float>>& target) {
  PlyRecord p;
  p.move = move;
  p.full_search = full_search;
  for (int k = 0; k < 3; ++k) p.wdl[k] = quantize_prob(wdl[k]);
  p.policy_begin = uint32_t(policy.size());
  p.policy_size = uint16_t(target.size() > 256 ? 256 : target.size());
  for (int i = 0; i < p.policy_size; ++i)
    policy.push_back(PolicyEntry{target[i].first, quantize_prob(target[i].second)});
  plies.push_back(p);
}

std::string encode_chunk(const std::vector<GameRecord>& games, uint64_t created_ms, int zstd_level, uint16_t version) {
  std::string raw;
  uint64_t positions = 0;
  for (const GameRecord& g : games) {
    encode_game(g, raw, version);
    positions += g.plies.size();
  }
  std::string payload(ZSTD_compressBound(raw.size()), '\0');
  size_t n = ZSTD_compress(payload.data(), payload.size(), raw.data(), raw.size(), zstd_level);
  if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
  payload.resize(n);

  std::string out;
  out.reserve(CHUNK_HEADER_SIZE + payload.size() + CHUNK_TRAILER_SIZE);
  Out o{out};
  out.append(CHUNK_MAGIC, 8);
  o.u16(version);
  o.u16(CHUNK_FLAG_ZSTD);
  o.u32(uint32_t(games.size()));
  o.u32(uint32_t(positions));
  o.u32(0);  // reserved
  o.u64(created_ms);
  o.u64(raw.size());
  o.u64(payload.size());
  out.append(payload);
  o.u32(crc32(out.data(), out.size()));
  return out;
}

bool decode_chunk_header(const std::string& bytes, ChunkHeader& h, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  if (bytes.size() < CHUNK_HEADER_SIZE) return fail("file too short for a chunk header");
  if (std::memcmp(bytes.data(), CHUNK_MAGIC, 8) != 0) return fail("not a replay chunk (bad magic)");
  In in{reinterpret_cast<const uint8_t*>(bytes.data()) + 8, CHUNK_HEADER_SIZE - 8};
  h.version = uint16_t(in.u16());
  h.flags = uint16_t(in.u16());
  h.game_count = in.u32();
  h.position_count = in.u32();
  in.u32();
  h.created_ms = in.u64();
  h.uncompressed_size = in.u64();
  h.payload_size = in.u64();
  if (h.version < CHUNK_VERSION_MIN || h.version > CHUNK_VERSION)
    return fail("unsupported chunk format version " + std::to_string(h.version));
  if (h.flags & ~CHUNK_FLAG_ZSTD) return fail("unknown chunk flags");
  if (h.uncompressed_size > CHUNK_MAX_UNCOMPRESSED || h.payload_size > CHUNK_MAX_UNCOMPRESSED)
    return fail("chunk sizes out of range");
  return true;
}

bool decode_chunk(const std::string& bytes, ChunkHeader& h, std::vector<GameRecord>& games, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  if (!decode_chunk_header(bytes, h, error)) return false;
  if (bytes.size() != CHUNK_HEADER_SIZE + h.payload_size + CHUNK_TRAILER_SIZE)
    return fail("chunk size " + std::to_string(bytes.size()) + " does not match its header (truncated?)");
  size_t body = CHUNK_HEADER_SIZE + h.payload_size;
  In t{reinterpret_cast<const uint8_t*>(bytes.data()) + body, CHUNK_TRAILER_SIZE};
  if (crc32(bytes.data(), body) != t.u32()) return fail("chunk CRC mismatch");

  std::string raw;
  const char* payload = bytes.data() + CHUNK_HEADER_SIZE;
  if (h.flags & CHUNK_FLAG_ZSTD) {
    unsigned long long declared = ZSTD_getFrameContentSize(payload, h.payload_size);
    if (declared != h.uncompressed_size) return fail("compressed payload size mismatch");
    raw.resize(h.uncompressed_size);
    size_t n = ZSTD_decompress(raw.data(), raw.size(), payload, h.payload_size);
    if (ZSTD_isError(n) || n != h.uncompressed_size) return fail("payload does not decompress");
  } else {
    if (h.uncompressed_size != h.payload_size) return fail("payload size mismatch");
    raw.assign(payload, h.payload_size);
  }

  In in{reinterpret_cast<const uint8_t*>(raw.data()), raw.size()};
  games.clear();
  games.reserve(std::min<size_t>(h.game_count, raw.size() / 16));
  uint64_t positions = 0;
  for (uint32_t i = 0; i < h.game_count; ++i) {
    GameRecord g;
    std::string why;
    if (!decode_game(in, g, h.version, &why)) return fail("game " + std::to_string(i) + ": " + why);
    positions += g.plies.size();
    games.push_back(std::move(g));
  }
  if (in.left != 0) return fail("trailing bytes after the last game");
  if (positions != h.position_count) return fail("position count does not match the header");
  return true;
}

}  // namespace jz
