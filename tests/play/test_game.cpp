// Game sessions: moves in both notations, illegal input, undo, resignation, records, board text.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/notation.h"
#include "play/board_text.h"
#include "play/game.h"
#include "play/model_path.h"

namespace jz {
namespace {

TEST(Game, MovesUndoAndIllegalInput) {
  Game g;
  std::string err;
  ASSERT_TRUE(g.start_setup("inner-outer", Ruleset::JANGGI, &err)) << err;
  EXPECT_EQ(g.setup(), "inner-outer");
  Move m;
  ASSERT_TRUE(g.play_text("a4a5", &m, &err)) << err;
  EXPECT_FALSE(g.play_text("a7a5", &m, &err));  // occupied by nothing legal: illegal
  EXPECT_FALSE(err.empty());
  EXPECT_FALSE(g.play_text("zz", &m, &err));
  EXPECT_FALSE(g.play_text("", &m, &err));
  EXPECT_EQ(g.ply(), 1);
  ASSERT_TRUE(g.play_text("pass", &m, &err)) << err;
  EXPECT_TRUE(m.is_pass());
  EXPECT_EQ(g.ply(), 2);
  EXPECT_EQ(g.undo(5), 2);
  EXPECT_EQ(g.ply(), 0);
  EXPECT_EQ(g.pos().fen(), g.start_fen());
}

TEST(Game, KoreanNotationRoundTrip) {
  Game g;
  std::string err;
  Move m;
  ASSERT_TRUE(g.play_text("b1c3", &m, &err)) << err;
  std::string kor = g.korean(0);
  g.undo();
  Move m2;
  ASSERT_TRUE(g.play_text(kor, &m2, &err)) << kor << ": " << err;
  EXPECT_EQ(m, m2);
}

TEST(Game, XiangqiStartsFromItsPositionAndRecordsChinese) {
  Game g;
  std::string err;
  ASSERT_TRUE(g.start_setup("inner-inner", Ruleset::XIANGQI, &err)) << err;  // the default setup names it
  EXPECT_EQ(g.pos().fen(), Position::XIANGQI_START_FEN);
  EXPECT_EQ(g.setup(), "");
  EXPECT_FALSE(g.start_setup("outer-inner", Ruleset::XIANGQI, &err));
  Move m;
  ASSERT_TRUE(g.play_text("炮二平五", &m, &err)) << err;
  ASSERT_TRUE(g.play_text("H8+7", &m, &err)) << err;
  ASSERT_TRUE(g.play_text("c4c5", &m, &err)) << err;
  EXPECT_EQ(g.notation_moves(), (std::vector<std::string>{"炮二平五", "馬8進7", "兵七進一"}));
  EXPECT_EQ(g.notation(1), "馬8進7");
  std::string json = g.to_json();
  EXPECT_NE(json.find("\"chinese\": [\n  \"炮二平五\","), std::string::npos) << json;
  Game back;
  ASSERT_TRUE(back.from_json(json, &err)) << err;
  EXPECT_EQ(back.pos().fen(), g.pos().fen());
  Game janggi;  // Janggi's own notation is Korean, and its record has no Chinese list
  ASSERT_TRUE(janggi.play_text("b1c3", &m, &err)) << err;
  EXPECT_EQ(janggi.notation(0), janggi.korean(0));
  EXPECT_EQ(janggi.to_json().find("chinese"), std::string::npos);
}

TEST(Game, ResignationAndGameOver) {
  Game g;
  std::string err;
  g.resign(CHO);
  GameResult r = g.result();
  EXPECT_EQ(r.winner, Winner::HAN);
  EXPECT_EQ(r.ending, Ending::RESIGNATION);
  Move m;
  EXPECT_FALSE(g.play_text("b1c3", &m, &err));
  EXPECT_NE(err.find("over"), std::string::npos);
  g.undo(0);  // taking back a resignation
  EXPECT_FALSE(g.over());
  // Double pass ends the game (counting under the janggi rules).
  ASSERT_TRUE(g.play_text("e2e2", &m, &err));
  ASSERT_TRUE(g.play_text("e9e9", &m, &err));
  EXPECT_TRUE(g.over());
  EXPECT_EQ(g.result().ending, Ending::DOUBLE_PASS);
}

TEST(Game, RecordRoundTripAndBadRecords) {
  Game g;
  std::string err;
  ASSERT_TRUE(g.start_setup("left-right", Ruleset::MODERN, &err));
  Move m;
  for (const char* s : {"a4a5", "i7i6", "e4e5"}) ASSERT_TRUE(g.play_text(s, &m, &err)) << s << err;
  g.resign(HAN);
  std::string text = g.to_json();
  Game h;
  ASSERT_TRUE(h.from_json(text, &err)) << err;
  EXPECT_EQ(h.rules(), Ruleset::MODERN);
  EXPECT_EQ(h.moves(), g.moves());
  EXPECT_EQ(h.pos().fen(), g.pos().fen());
  EXPECT_EQ(h.result().ending, Ending::RESIGNATION);
  EXPECT_EQ(h.result().winner, Winner::CHO);
  EXPECT_EQ(h.setup(), "left-right");

  std::string path = testing::TempDir() + "jz_game_record.json";
  ASSERT_TRUE(g.save(path, &err)) << err;
  Game k;
  ASSERT_TRUE(k.load(path, &err)) << err;
  EXPECT_EQ(k.moves(), g.moves());
  std::remove(path.c_str());

  Game bad;
  EXPECT_FALSE(bad.from_json("{not json", &err));
  EXPECT_FALSE(bad.from_json(R"({"start_fen":"x","moves":[]})", &err));
  EXPECT_FALSE(bad.from_json(
      R"({"start_fen":"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1","moves":["b1b5"]})",
      &err));
  EXPECT_NE(err.find("move 1"), std::string::npos);
  EXPECT_FALSE(bad.load("/nonexistent/dir/record.json", &err));
  EXPECT_EQ(bad.ply(), 0);  // unchanged by failures
}

TEST(BoardText, PiecesPalaceAndAscii) {
  Game g;
  std::string err;
  Move m;
  ASSERT_TRUE(g.play_text("b1c3", &m, &err));
  BoardStyle st;
  st.color = false;
  std::string u = render_board(g.pos(), st);
  EXPECT_NE(u.find("漢"), std::string::npos);
  EXPECT_NE(u.find("楚"), std::string::npos);
  EXPECT_NE(u.find("╲"), std::string::npos);
  EXPECT_NE(u.find("╱"), std::string::npos);
  st.hanja = false;
  EXPECT_NE(render_board(g.pos(), st).find("졸"), std::string::npos);
  st.ascii = true;
  std::string a = render_board(g.pos(), st);
  for (unsigned char c : a) EXPECT_LT(c, 128) << "non-ASCII in ASCII board";
  EXPECT_NE(a.find("K"), std::string::npos);
  EXPECT_NE(a.find("k"), std::string::npos);
  EXPECT_NE(a.find("/"), std::string::npos);
  EXPECT_NE(a.find("\\"), std::string::npos);
  st.color = true;
  st.ascii = false;
  std::string c = render_board(g.pos(), st);
  EXPECT_NE(c.find("\x1b[1;34m"), std::string::npos);  // blue Cho
  EXPECT_NE(c.find("\x1b[1;31m"), std::string::npos);  // red Han
  // 10 rank rows + 9 gap rows + the file letters.
  st.flip = true;
  std::string f = render_board(g.pos(), st);
  int lines = 0;
  for (char ch : f) lines += ch == '\n';
  EXPECT_EQ(lines, 20);
}

TEST(ModelPath, EnvironmentDecides) {
  setenv("JZ_MODEL", "none", 1);
  EXPECT_TRUE(default_model_candidates().empty());
  EXPECT_EQ(find_default_model(), "");
  setenv("JZ_MODEL", "/nonexistent/model.jzn", 1);
  EXPECT_EQ(find_default_model(), "");
  unsetenv("JZ_MODEL");
  EXPECT_GE(default_model_candidates().size(), 1u);
}

}  // namespace
}  // namespace jz
