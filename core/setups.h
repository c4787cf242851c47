// The 16 start positions: each side independently orders horse and elephant on each wing.
#pragma once
#include <string>
#include <vector>

#include "types.h"

namespace jz {

// From the owner's own view: inner = 마상상마 (안상), outer = 상마마상 (바깥상),
// left = 상마상마 (왼상), right = 마상마상 (오른상).
// ELEPHANT_CHARIOT (rule option elephant-chariot, "mobile chariots"): elephant and chariot swap on both
// wings of the inner setup, so the back rank reads elephant, horse, chariot ... chariot, horse, elephant.
enum class WingSetup { INNER = 0, OUTER = 1, LEFT = 2, RIGHT = 3, ELEPHANT_CHARIOT = 4 };
constexpr int SETUP_NB = 16;  // setup indexes cover the four standard wing setups per side
constexpr int WING_SETUP_NB = 5;

const char* wing_setup_name(WingSetup s);
std::string setup_fen(WingSetup cho, WingSetup han);
// Setup index 0..15 = cho * 4 + han. Name is "<cho>-<han>", e.g. "inner-outer".
std::string setup_name(int index);
std::string setup_fen(int index);
// A game's start positions, index 0..setup_count - 1: Janggi's 16 setups (the indexes above), Xiangqi's
// one standard position. Matches and teacher games draw from these.
int setup_count(Ruleset r);
std::string setup_fen(Ruleset r, int index);
// "standard" for Xiangqi's; Janggi's names below; "custom" for an index out of range.
std::string setup_name(Ruleset r, int index);
// Accepts "<cho>-<han>" with English or Korean names (안상, 바깥상, 왼상, 오른상), or an index 0..15.
bool parse_setup(const std::string& name, int& index);
// "<cho>-<han>" with any wing setup, elephant-chariot included: "elephant-chariot-inner".
std::string setup_name(WingSetup cho, WingSetup han);
bool parse_setup_sides(const std::string& name, WingSetup& cho, WingSetup& han);

}  // namespace jz
