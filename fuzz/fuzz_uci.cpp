// UCI command lines through the real session of `janggi-zero uci` (play/uci_session.h): whatever the
// lines, the session must return (quit or end of input), never crash or hang, and answer every
// `isready`. Alpha-beta only (no LibTorch in this build, no default model), and the session's limits
// keep any `go` to a few milliseconds and perft to depth 2, so one input runs in milliseconds.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "play/uci_session.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("JZ_MODEL", "none", 1);  // no default model file: the engine plays alpha-beta
  return 0;
}

namespace {

// isready lines the session reads before it stops at `quit` (first word of a line, as it parses).
int expected_readyok(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string cmd;
    if (!(words >> cmd)) continue;
    if (cmd == "quit") break;
    n += cmd == "isready";
  }
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::string text(reinterpret_cast<const char*>(data), size);
  jz::UciLimits limits;
  limits.max_think_ms = 5;
  limits.max_nodes = 300;  // the clock is read every 1024 nodes: nodes bound a search more tightly
  limits.max_perft_depth = 2;
  limits.max_hash_mb = 2;
  std::istringstream in(text);
  std::ostringstream out;
  jz::run_uci(in, out, limits);

  std::istringstream replies(out.str());
  std::string line;
  int readyok = 0;
  while (std::getline(replies, line)) readyok += line == "readyok";
  if (readyok != expected_readyok(text)) __builtin_trap();
  return 0;
}
