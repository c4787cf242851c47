// Replay chunk bytes: decoding must reject every defect with a reason and never crash; whatever it
// accepts must re-encode and decode to the same games, and then face what the trainer does with a
// game (validate_game replays it through the rules; the exports). Every input is tried twice: as it
// is, and "repaired" (payload size, uncompressed size and CRC rewritten to match), because a mutated
// chunk almost never keeps a valid CRC and would otherwise stop at that check.
#include <zstd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "replay/game_record.h"
#include "replay/replay_format.h"
#include "util/fileio.h"

namespace {

void put64(std::string& s, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) s[at + i] = char((v >> (8 * i)) & 0xFF);
}

void check(const std::string& bytes) {
  jz::ChunkHeader header;
  std::vector<jz::GameRecord> games;
  std::string err;
  if (!jz::decode_chunk(bytes, header, games, &err)) {
    if (err.empty()) __builtin_trap();
    return;
  }
  std::string again = jz::encode_chunk(games, header.created_ms);
  std::vector<jz::GameRecord> games2;
  if (!jz::decode_chunk(again, header, games2, &err) || games2.size() != games.size()) __builtin_trap();
  for (const jz::GameRecord& g : games) {
    if (!jz::validate_game(g, &err)) {
      if (err.empty()) __builtin_trap();
      continue;
    }
    jz::game_to_json(g);
    jz::game_to_text(g);
    jz::game_to_uci(g);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return 0;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  check(bytes);
  const size_t fixed = jz::CHUNK_HEADER_SIZE + jz::CHUNK_TRAILER_SIZE;
  if (size < fixed) return 0;
  uint64_t payload = size - fixed;
  put64(bytes, 40, payload);
  bool zstd = uint8_t(bytes[10]) & jz::CHUNK_FLAG_ZSTD;
  unsigned long long content = zstd ? ZSTD_getFrameContentSize(bytes.data() + jz::CHUNK_HEADER_SIZE, payload) : payload;
  if (content <= jz::CHUNK_MAX_UNCOMPRESSED) put64(bytes, 32, content);
  uint32_t crc = jz::crc32(bytes.data(), size - jz::CHUNK_TRAILER_SIZE);
  for (int i = 0; i < 4; ++i) bytes[size - 4 + i] = char((crc >> (8 * i)) & 0xFF);
  check(bytes);
  return 0;
}
