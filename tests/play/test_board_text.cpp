// play/board_text: the Xiangqi board (its characters, the river, the file numbers each side counts by)
// and the Janggi board left as it was.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "play/board_text.h"
#include "tests/support/fen.h"

namespace jz {
namespace {

Position xq(const std::string& fen) { return test::position_of(fen, Ruleset::XIANGQI); }

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Index of the board row of a rank ("10  ..." or " 5  ..."), -1 if none.
int rank_row(const std::vector<std::string>& rows, int rank) {
  std::string head = (rank < 10 ? " " : "") + std::to_string(rank) + "  ";
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].rfind(head, 0) == 0) return int(i);
  return -1;
}

BoardStyle plain() {
  BoardStyle st;
  st.color = false;
  return st;
}

TEST(BoardText, XiangqiStartWithRiverAndFileNumbers) {
  auto rows = lines(render_board(xq(Position::start_fen(Ruleset::XIANGQI)), plain()));
  ASSERT_EQ(rows.size(), 22u);  // numbers, letters, 10 ranks, 8 gaps, the river, numbers
  EXPECT_EQ(rows[0], "     1   2   3   4   5   6   7   8   9");  // Black counts from its right, file a
  EXPECT_EQ(rows[1], "     a   b   c   d   e   f   g   h   i");
  EXPECT_EQ(rows[2], "10  車──馬──象──士──將──士──象──馬──車");
  EXPECT_EQ(rows[rank_row(rows, 8)], " 8  ├───砲──┼───┼───┼───┼───┼───砲──┤ ");
  EXPECT_EQ(rows[rank_row(rows, 3)], " 3  ├───炮──┼───┼───┼───┼───┼───炮──┤ ");
  EXPECT_EQ(rows[rank_row(rows, 1)], " 1  俥──傌──相──仕──帥──仕──相──傌──俥");
  int six = rank_row(rows, 6), five = rank_row(rows, 5);
  ASSERT_EQ(five, six + 2);
  EXPECT_EQ(rows[six + 1], "    │     楚  河         漢  界     │");
  EXPECT_EQ(rows.back(), "    九  八  七  六  五  四  三  二  一");  // Red counts from its right, file i
}

TEST(BoardText, XiangqiPiecesWhereTheFenPutsThem) {
  // Black general d10, black soldier e6, red soldier c5 (not yet across), red cannon c3, red general e1.
  BoardStyle st = plain();
  st.ascii = true;
  auto rows = lines(render_board(xq("3k5/9/9/9/4p4/2P6/9/2C6/9/4K4 w - - 0 1"), st));
  auto at = [&](int rank, int file) { return rows[rank_row(rows, rank)][4 + 4 * file]; };
  EXPECT_EQ(at(10, 3), 'k');
  EXPECT_EQ(at(6, 4), 'p');
  EXPECT_EQ(at(5, 2), 'P');
  EXPECT_EQ(at(3, 2), 'C');
  EXPECT_EQ(at(1, 4), 'K');
  EXPECT_EQ(at(1, 3), '+');
  EXPECT_EQ(rows[rank_row(rows, 6) + 1], "    |     chu he         han jie    |");
  EXPECT_EQ(rows.back(), "     9   8   7   6   5   4   3   2   1");  // ASCII digits for Red too
  for (const std::string& r : rows)
    for (char c : r) EXPECT_TRUE(c >= ' ' && c <= '~') << r;
}

TEST(BoardText, XiangqiFlippedAndColoured) {
  BoardStyle st = plain();
  st.flip = true;
  auto rows = lines(render_board(xq(Position::start_fen(Ruleset::XIANGQI)), st));
  EXPECT_EQ(rows[0], "    一  二  三  四  五  六  七  八  九");  // Red's numbers over Red's side, seen from Black
  EXPECT_EQ(rows[2], " 1  俥──傌──相──仕──帥──仕──相──傌──俥");
  EXPECT_EQ(rank_row(rows, 6), rank_row(rows, 5) + 2);
  EXPECT_NE(rows[rank_row(rows, 5) + 1].find("楚  河"), std::string::npos);
  EXPECT_EQ(rows.back(), "     9   8   7   6   5   4   3   2   1");
  st.color = true;
  std::string colored = render_board(xq(Position::start_fen(Ruleset::XIANGQI)), st);
  EXPECT_NE(colored.find("\x1b[1;31m帥"), std::string::npos);  // red
  EXPECT_NE(colored.find("\x1b[1m將"), std::string::npos);     // black: the terminal's colour, bold
}

TEST(BoardText, JanggiUnchanged) {
  Position p;
  std::string text = render_board(p, plain());
  auto rows = lines(text);
  ASSERT_EQ(rows.size(), 20u);
  EXPECT_EQ(rows[0], "     a   b   c   d   e   f   g   h   i");
  EXPECT_EQ(rows[1], "10  車──馬──象──士──┬───士──象──馬──車");
  EXPECT_EQ(rows[rank_row(rows, 6) + 1], "    │   │   │   │   │   │   │   │   │");
  EXPECT_EQ(text.find("河"), std::string::npos);
}

}  // namespace
}  // namespace jz
