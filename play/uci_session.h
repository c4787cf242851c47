// The UCI protocol loop behind `janggi-zero uci`, on any pair of streams: the command line runs it on
// stdin/stdout, the fuzz target (fuzz/fuzz_uci.cpp) on strings. Janggi conventions as Fairy-Stockfish
// speaks them (UCI_Variant, squares a1..i10, pass = the general's square twice). The search runs on
// its own thread so that `stop` and `isready` are answered while it thinks.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

namespace jz {

// Resource bounds on what commands may ask for. The defaults are the engine's advertised ranges;
// an embedding that must stay fast (the fuzzer) lowers them.
struct UciLimits {
  int max_think_ms = 0;      // hard bound on every search, whatever `go` says (0 = none)
  uint64_t max_nodes = 0;    // same in nodes (0 = none): exact, where time is checked every 1024 nodes
  int max_perft_depth = 10;  // `go perft N`
  int max_hash_mb = 65536;   // `setoption name Hash`
};

class Evaluator;
// Loads a model file as a network; nullptr + *error on failure. The default is load_network (play/engine.h);
// tests hand in their own.
using NetworkLoader = std::function<std::shared_ptr<Evaluator>(const std::string& path, std::string* error)>;

// Reads commands until `quit` or the end of `in` (where a finite search completes first, so that
// `echo go depth 5 | janggi-zero uci` answers), writing replies to `out`.
void run_uci(std::istream& in, std::ostream& out, const UciLimits& limits = UciLimits(),
             NetworkLoader loader = NetworkLoader());

}  // namespace jz
