// Replay chunk bytes: decoding must reject every defect with a reason and never crash; whatever it
// accepts must re-encode and decode to the same games.
#include <cstdint>
#include <string>
#include <vector>

#include "selfplay/replay_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  jz::ChunkHeader header;
  std::vector<jz::GameRecord> games;
  std::string err;
  if (!jz::decode_chunk(bytes, header, games, &err)) {
    if (err.empty()) __builtin_trap();
    return 0;
  }
  std::string again = jz::encode_chunk(games, header.created_ms);
  std::vector<jz::GameRecord> games2;
  if (!jz::decode_chunk(again, header, games2, &err) || games2.size() != games.size()) __builtin_trap();
  return 0;
}
