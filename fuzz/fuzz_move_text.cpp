// Move text in both notations against a few fixed positions: parse must never crash, and what it
// accepts must be legal and round-trip.
#include <cstdint>
#include <string>

#include "core/movegen.h"
#include "core/notation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64) return 0;
  static const char* FENS[] = {"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
                               "4k4/9/9/9/9/9/9/3n5/9/4K4 w - - 0 1",
                               "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1"};
  std::string text(reinterpret_cast<const char*>(data), size);
  for (const char* fen : FENS) {
    jz::Position p;
    std::string err;
    p.set_fen(fen, jz::Ruleset::JANGGI, &err);
    jz::Move m;
    if (jz::parse_any_move(p, text, m, &err)) {
      if (!jz::is_legal(p, m)) __builtin_trap();
      jz::Move back;
      if (!jz::parse_legal_uci_move(p, jz::move_to_uci(m), back, &err) || back != m) __builtin_trap();
      if (!jz::parse_korean_move(p, jz::move_to_korean(p, m), back, &err) || back != m) __builtin_trap();
    } else if (err.empty()) {
      __builtin_trap();
    }
    jz::parse_uci_move(text, m);
    jz::Square s;
    jz::parse_square(text, s);
  }
  return 0;
}
