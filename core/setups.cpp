#include "setups.h"

#include "position.h"

#include <cctype>

namespace jz {

namespace {
const char* NAMES[WING_SETUP_NB] = {"inner", "outer", "left", "right", "elephant-chariot"};
const char* KOREAN[WING_SETUP_NB] = {"안상", "바깥상", "왼상", "오른상", ""};
// Pieces on files b, c, g, h seen from the owner's left: index 0 = owner's leftmost of the four.
const char* ORDER[4] = {"NBBN", "BNNB", "BNBN", "NBNB"};

bool parse_wing(const std::string& s, WingSetup& out) {
  for (int i = 0; i < WING_SETUP_NB; ++i)
    if (s == NAMES[i] || (*KOREAN[i] && s == KOREAN[i])) {
      out = WingSetup(i);
      return true;
    }
  return false;
}

// The back rank a..i as the owner sees it from the left; uppercase.
std::string back_rank(WingSetup w) {
  if (w == WingSetup::ELEPHANT_CHARIOT) return "BNRA1ARNB";
  const char* o = ORDER[int(w)];
  return std::string("R") + o[0] + o[1] + "A1A" + o[2] + o[3] + "R";
}
}  // namespace

const char* wing_setup_name(WingSetup s) { return NAMES[int(s)]; }

std::string setup_fen(WingSetup cho, WingSetup han) {
  // Cho's left is file a; Han's left (looking from rank 10) is file i.
  std::string cho_row = back_rank(cho), han_row;
  std::string h = back_rank(han);
  for (auto it = h.rbegin(); it != h.rend(); ++it) han_row += char(std::tolower(static_cast<unsigned char>(*it)));
  return han_row + "/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/" + cho_row + " w - - 0 1";
}

std::string setup_name(int index) { return std::string(NAMES[index / 4]) + "-" + NAMES[index % 4]; }

std::string setup_fen(int index) { return setup_fen(WingSetup(index / 4), WingSetup(index % 4)); }

int setup_count(Ruleset r) { return game_of(r) == GameKind::XIANGQI ? 1 : SETUP_NB; }
std::string setup_fen(Ruleset r, int index) {
  return game_of(r) == GameKind::XIANGQI ? Position::start_fen(r) : setup_fen(index);
}
std::string setup_name(Ruleset r, int index) {
  if (index < 0 || index >= setup_count(r)) return "custom";
  return game_of(r) == GameKind::XIANGQI ? "standard" : setup_name(index);
}

std::string setup_name(WingSetup cho, WingSetup han) { return std::string(NAMES[int(cho)]) + "-" + NAMES[int(han)]; }

bool parse_setup_sides(const std::string& name, WingSetup& cho, WingSetup& han) {
  int index;
  if (parse_setup(name, index)) {
    cho = WingSetup(index / 4), han = WingSetup(index % 4);
    return true;
  }
  // Wing names may contain '-': try every split.
  for (size_t dash = name.find('-'); dash != std::string::npos; dash = name.find('-', dash + 1))
    if (parse_wing(name.substr(0, dash), cho) && parse_wing(name.substr(dash + 1), han)) return true;
  return false;
}

bool parse_setup(const std::string& name, int& index) {
  if (!name.empty() && name.size() <= 2 && std::isdigit(static_cast<unsigned char>(name[0]))) {
    int i = std::stoi(name);
    if (i < 0 || i >= SETUP_NB) return false;
    index = i;
    return true;
  }
  auto dash = name.find('-');
  if (dash == std::string::npos) return false;
  WingSetup c, h;
  if (!parse_wing(name.substr(0, dash), c) || !parse_wing(name.substr(dash + 1), h)) return false;
  if (c == WingSetup::ELEPHANT_CHARIOT || h == WingSetup::ELEPHANT_CHARIOT) return false;
  index = int(c) * 4 + int(h);
  return true;
}

}  // namespace jz
