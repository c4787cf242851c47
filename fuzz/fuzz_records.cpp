// Game-record files (records/): decoding (UTF-8 or EUC-KR), the .gib, PGN and JSONL readers, and the
// importer's replay into training games. The first byte picks the format; the rest is the file.
// Invariants: a rejected file or game says why, and every game the importer accepts passes the
// trainer's own validate_game (so the replay buffer never drops an imported chunk).
#include <cstdint>
#include <string>
#include <vector>

#include "records/importer.h"
#include "replay/game_record.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || size > 16384) return 0;
  static const char* const NAMES[] = {"f.gib", "f.pgn", "f.jsonl", "f.txt"};
  const std::string name = NAMES[data[0] % 4];
  const std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  jz::ImportOptions options;
  options.label_smoothing = (data[0] >> 2) % 2 ? 0.1f : 0.0f;
  std::vector<jz::ParsedGame> games;
  std::string err;
  if (!jz::read_record_bytes(name, bytes, options, games, &err)) {
    if (err.empty()) __builtin_trap();
    return 0;
  }
  for (const jz::ParsedGame& g : games) {
    if (!g.ok()) continue;
    jz::GameRecord rec;
    int bad_ply = 0;
    std::string why;
    if (!jz::make_training_game(g, options.label_smoothing, name, rec, &bad_ply, &why)) {
      if (why.empty()) __builtin_trap();
      continue;
    }
    if (!jz::validate_game(rec, &why)) __builtin_trap();
  }
  return 0;
}
