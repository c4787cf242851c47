// The project's one seed mixer and small PRNG: splitmix64 (Steele, Lea, Flood 2014), the generator
// java.util.SplittableRandom uses (Stockfish's misc.h PRNG is xorshift64*, another small generator). Header-only so that core/ can use it without util.
#pragma once
#include <cstdint>

namespace jz {

constexpr uint64_t GOLDEN_GAMMA = 0x9E3779B97F4A7C15ULL;

// splitmix64's finaliser: a bijection that spreads every input bit over the output.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The next number of the splitmix64 stream whose state is `state` (advanced).
inline uint64_t splitmix64(uint64_t& state) { return mix64(state += GOLDEN_GAMMA); }

// Two values into one well-mixed seed or key: neighbouring inputs give unrelated outputs, and for a
// fixed h distinct v never collide (mix64 is a bijection, and so is xor with a constant).
inline uint64_t hash_combine(uint64_t h, uint64_t v) { return mix64(mix64(h + GOLDEN_GAMMA) ^ v); }

}  // namespace jz
