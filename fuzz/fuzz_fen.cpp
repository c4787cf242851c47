// FEN parsing, then everything a parsed position must survive: fen() round-trip, move generation,
// game-end logic, a few plies of make/undo.
#include <cstdint>
#include <string>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 256) return 0;
  std::string text(reinterpret_cast<const char*>(data), size);
  for (int r = 0; r < jz::RULESET_NB; ++r) {
    jz::Position p;
    std::string err;
    if (!p.set_fen(text, jz::Ruleset(r), &err)) {
      if (err.empty()) __builtin_trap();  // a rejection must say why
      continue;
    }
    jz::Position q;
    if (!q.set_fen(p.fen(), jz::Ruleset(r), &err) || q.key() != p.key()) __builtin_trap();
    jz::game_result(p);
    jz::perft(p, 2);
  }
  return 0;
}
