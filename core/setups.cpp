#include "setups.h"

#include <cctype>

namespace jz {

namespace {
const char* NAMES[4] = {"inner", "outer", "left", "right"};
const char* KOREAN[4] = {"안상", "바깥상", "왼상", "오른상"};
// Pieces on files b, c, g, h seen from the owner's left: index 0 = owner's leftmost of the four.
const char* ORDER[4] = {"NBBN", "BNNB", "BNBN", "NBNB"};

bool parse_wing(const std::string& s, WingSetup& out) {
  for (int i = 0; i < 4; ++i)
    if (s == NAMES[i] || s == KOREAN[i]) {
      out = WingSetup(i);
      return true;
    }
  return false;
}
}  // namespace

const char* wing_setup_name(WingSetup s) { return NAMES[int(s)]; }

std::string setup_fen(WingSetup cho, WingSetup han) {
  // Cho's left is file a; Han's left (looking from rank 10) is file i.
  const char* c = ORDER[int(cho)];
  const char* h = ORDER[int(han)];
  std::string han_row =
      std::string("r") + char(h[3] + 32) + char(h[2] + 32) + "a1a" + char(h[1] + 32) + char(h[0] + 32) + "r";
  std::string cho_row = std::string("R") + c[0] + c[1] + "A1A" + c[2] + c[3] + "R";
  return han_row + "/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/" + cho_row + " w - - 0 1";
}

std::string setup_name(int index) { return std::string(NAMES[index / 4]) + "-" + NAMES[index % 4]; }

std::string setup_fen(int index) { return setup_fen(WingSetup(index / 4), WingSetup(index % 4)); }

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
  index = int(c) * 4 + int(h);
  return true;
}

}  // namespace jz
