// Cheap pre-test for quiet checking moves (quiescence search generates checks with it).
#pragma once
#include "core/position.h"

namespace jz::ab {

// False only if the quiet move m surely does not give check: it must land where its piece attacks
// the enemy general from, land on or leave a line through that general (chariots, cannon screens),
// or free a horse/elephant leg. Confirm with do_move + in_check().
bool may_give_check(const Position& pos, Move m);

}  // namespace jz::ab
