// Rule options through the play layer: alpha-beta plays them, games record them, the UCI session
// takes them as check options, and a network trained without them refuses (never answers).
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "core/movegen.h"
#include "core/notation.h"
#include "play/engine.h"
#include "play/game.h"
#include "play/uci_session.h"

namespace jz {
namespace {

// Cho: soldier c9, chariot i9 (covers e9 f9), general d1; Han: general f10. Only c9c10r mates: the new
// chariot checks along rank 10 and e10 is on that rank (the soldier plain, or as horse, cannon or
// elephant, gives no check).
const std::string PROMOTE_MATE = "5k3/2P5R/9/9/9/9/9/9/9/3K5 w - - 0 1";

RuleOptions promotion() {
  RuleOptions o;
  parse_rule_option("soldier-promotion", o);
  return o;
}

// A network stand-in for network_accepts: the options it says it was trained with.
class FakeNet : public Evaluator {
 public:
  explicit FakeNet(RuleOptions o) : o_(o) {}
  void evaluate(const EvalInput*, int, Evaluation*) override { throw std::logic_error("must not be asked"); }
  std::string id() const override { return "fake@0"; }
  RuleOptions rule_options() const override { return o_; }

 private:
  RuleOptions o_;
};

}  // namespace

TEST(RuleOptionsPlay, AlphaBetaPromotesToMate) {
  Position p;
  std::string err;
  ASSERT_TRUE(p.set_fen(PROMOTE_MATE, Ruleset::JANGGI, promotion(), &err)) << err;
  PlayEngine e;
  SearchLimits l;
  l.depth = 3;
  Move m = e.think(p, l);
  EXPECT_EQ(move_to_uci(m), "c9c10r");
  p.do_move(m);
  GameResult r = game_result(p);
  EXPECT_EQ(r.ending, Ending::CHECKMATE);
  EXPECT_EQ(r.winner, Winner::CHO);
}

TEST(RuleOptionsPlay, GameRecordsKeepOptionsAndGateTheSetup) {
  Game g;
  std::string err;
  EXPECT_FALSE(g.start_setup("elephant-chariot-inner", Ruleset::JANGGI, &err));
  EXPECT_NE(err.find("needs the rule option elephant-chariot"), std::string::npos) << err;
  RuleOptions o;
  parse_rule_options("elephant-chariot,soldier-promotion", o, &err);
  ASSERT_TRUE(g.start_setup("elephant-chariot-inner", Ruleset::JANGGI, o, &err)) << err;
  EXPECT_EQ(g.setup(), "elephant-chariot-inner");
  ASSERT_TRUE(g.play_text("c1c3", nullptr, &err)) << err;  // the chariot now stands on c1
  Game back;
  ASSERT_TRUE(back.from_json(g.to_json(), &err)) << err;
  EXPECT_EQ(back.options(), o);
  EXPECT_EQ(back.pos().fen(), g.pos().fen());
  EXPECT_NE(g.to_json().find("\"rule_options\": \"elephant-chariot,soldier-promotion\""), std::string::npos);
}

TEST(RuleOptionsPlay, NetworkRefusesOptionsItWasNotTrainedWith) {
  Position p;
  std::string err;
  ASSERT_TRUE(p.set_fen(PROMOTE_MATE, Ruleset::JANGGI, promotion(), &err));
  FakeNet plain{RuleOptions{}};
  EXPECT_FALSE(network_accepts(plain, p, &err));
  EXPECT_EQ(err,
            "network fake@0 was trained without rule option soldier-promotion: it cannot play this game "
            "(use the alpha-beta engine)");
  EXPECT_TRUE(network_accepts(FakeNet{promotion()}, p, &err));
  Position standard;
  EXPECT_TRUE(network_accepts(plain, standard, &err));

  PlayEngine e;
  if (!e.set_network(std::make_shared<FakeNet>(RuleOptions{}), &err)) GTEST_SKIP() << err;  // no MCTS build
  EXPECT_FALSE(e.accepts(p, &err));
  EXPECT_THROW(e.think(p, SearchLimits()), std::runtime_error);
  e.set_use_network(false);  // alpha-beta plays it
  EXPECT_TRUE(e.accepts(p, &err));
}

TEST(RuleOptionsPlay, UciCheckOptions) {
  std::istringstream in("uci\nsetoption name soldier-promotion value true\nposition fen " + PROMOTE_MATE +
                        "\ngo depth 3\nisready\nsetoption name flying-general value true\nquit\n");
  std::ostringstream out;
  run_uci(in, out);
  const std::string t = out.str();
  EXPECT_NE(t.find("option name soldier-promotion type check default false"), std::string::npos) << t;
  EXPECT_NE(t.find("option name elephant-chariot type check default false"), std::string::npos) << t;
  EXPECT_NE(t.find("bestmove c9c10r"), std::string::npos) << t;
  EXPECT_NE(t.find("info string error: unknown option 'flying-general'"), std::string::npos) << t;
}

}  // namespace jz
