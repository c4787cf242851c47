// The UCI session on streams shaped like a GUI's pipe: input that arrives line by line with pauses and
// is tied to the output (as std::cin is to std::cout), output that hands its buffer on at every flush.
// In a ThreadSanitizer build this catches the reading thread flushing the output (through the tie)
// while the search thread writes info lines; in every build it checks the replies and the tie.
#include <gtest/gtest.h>

#include <chrono>
#include <istream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <ostream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "core/notation.h"
#include "core/position.h"
#include "nn/evaluator.h"
#include "play/uci_session.h"

namespace jz {
namespace {

// Gives one line per read, each after a pause, so the search runs between two reads.
class SlowLines : public std::streambuf {
 public:
  SlowLines(std::vector<std::string> lines, int pause_ms) : lines_(std::move(lines)), pause_ms_(pause_ms) {}

 protected:
  int_type underflow() override {
    if (next_ == lines_.size()) return traits_type::eof();
    std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms_));
    current_ = lines_[next_++] + "\n";
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(current_[0]);
  }

 private:
  std::vector<std::string> lines_;
  size_t next_ = 0;
  int pause_ms_;
  std::string current_;
};

// Collects writes in a pending buffer that sync() moves to the finished text, as a file buffer hands
// its buffer to write(2).
class FlushedText : public std::streambuf {
 public:
  std::string text;

 protected:
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) pending_ += traits_type::to_char_type(c);
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    pending_.append(s, size_t(n));
    return n;
  }
  int sync() override {
    text += pending_;
    pending_.clear();
    return 0;
  }

 private:
  std::string pending_;
};

TEST(UciSession, TiedSlowInputWhileSearching) {
  // Empty lines are commands that reply nothing: the reads around them take no lock of the session.
  SlowLines lines({"setoption name ModelPath value <empty>", "position startpos", "go infinite", "", "", "isready", "",
                   "stop", "", "quit"},
                  30);
  FlushedText text;
  std::istream in(&lines);
  std::ostream out(&text);
  in.tie(&out);
  run_uci(in, out);
  out.flush();
  EXPECT_EQ(in.tie(), &out);  // the session gives the tie back
  EXPECT_NE(text.text.find("info depth "), std::string::npos) << text.text;
  EXPECT_NE(text.text.find("readyok"), std::string::npos) << text.text;
  EXPECT_NE(text.text.find("bestmove "), std::string::npos) << text.text;
  EXPECT_EQ(text.text.find("error"), std::string::npos) << text.text;
}

#ifdef JZ_TEST_MCTS
// A network whose every evaluation fails, as a LibTorch error during play would.
class FailingNet : public Evaluator {
 public:
  void evaluate(const EvalInput*, int, Evaluation*) override { throw std::runtime_error("device lost"); }
  std::string id() const override { return "failing"; }
};

// A failing network search is reported and the engine lives on: it answers the next commands.
TEST(UciSession, NetworkFailureIsReportedAndTheEngineLivesOn) {
  std::istringstream in(
      "setoption name ModelPath value failing.jzn\nposition startpos\ngo nodes 50\nisready\n"
      "setoption name UseNetwork value false\nsetoption name ModelPath value <empty>\ngo depth 2\nquit\n");
  std::ostringstream out;
  run_uci(in, out, UciLimits(), [](const std::string&, std::string*) { return std::make_shared<FailingNet>(); });
  std::string text = out.str();
  EXPECT_NE(text.find("info string error: search failed: device lost"), std::string::npos) << text;
  EXPECT_NE(text.find("bestmove (none)"), std::string::npos) << text;
  EXPECT_NE(text.find("readyok"), std::string::npos) << text;
  size_t last = text.rfind("bestmove ");
  ASSERT_NE(last, std::string::npos);
  EXPECT_NE(text.substr(last, 15), "bestmove (none)") << text;  // alpha-beta answered the second go
}

// A network is Janggi's: asked to play Xiangqi it is refused with both games named, and nothing is searched.
TEST(UciSession, NetworkRefusesXiangqi) {
  std::istringstream in(
      "setoption name ModelPath value failing.jzn\nsetoption name UCI_Variant value xiangqi\nposition startpos\n"
      "go nodes 50\nquit\n");
  std::ostringstream out;
  run_uci(in, out, UciLimits(), [](const std::string&, std::string*) { return std::make_shared<FailingNet>(); });
  std::string text = out.str();
  EXPECT_NE(text.find("plays janggi, not xiangqi"), std::string::npos) << text;
  EXPECT_NE(text.find("bestmove (none)"), std::string::npos) << text;
  EXPECT_EQ(text.find("device lost"), std::string::npos) << text;
}
#endif

std::string uci_text(const std::string& commands) {
  std::istringstream in(commands);
  std::ostringstream out;
  run_uci(in, out);
  return out.str();
}

// The line after the last "bestmove ".
std::string last_bestmove(const std::string& text) {
  size_t at = text.rfind("bestmove ");
  return at == std::string::npos ? "" : text.substr(at + 9, text.find('\n', at) - at - 9);
}

TEST(UciSession, XiangqiStartPositionPerftAndSearch) {
  std::string text = uci_text(
      "uci\nsetoption name ModelPath value <empty>\nsetoption name UCI_Variant value xiangqi\nposition startpos\n"
      "go perft 2\nposition startpos moves h3e3 h10g8\nd\ngo depth 3\n");  // no quit: the search completes
  EXPECT_NE(text.find("var xiangqi"), std::string::npos) << text;
  EXPECT_NE(text.find("Nodes searched: 1920"), std::string::npos) << text;  // tests/data/xiangqi/perft.tsv
  EXPECT_NE(text.find("Fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("error"), std::string::npos) << text;
  Position pos;
  std::string err;
  ASSERT_TRUE(pos.set_fen("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
                          Ruleset::XIANGQI, &err));
  Move m;
  EXPECT_TRUE(parse_legal_uci_move(pos, last_bestmove(text), m, &err)) << err << "\n" << text;
}

// Pikafish's coordinates (ranks 0-9) in and out; the game is the same as with ranks 1-10.
TEST(UciSession, RanksFromZero) {
  std::string text = uci_text(
      "setoption name ModelPath value <empty>\nsetoption name UCI_Variant value xiangqi\n"
      "setoption name RanksFromZero value true\nposition startpos moves h2e2 h9g7\nd\ngo perft 1\ngo depth 2\n");
  EXPECT_NE(text.find("Fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\na0a1: "), std::string::npos) << text;  // Red's chariot, a1a2 in ranks 1-10
  std::string best = last_bestmove(text);
  EXPECT_EQ(best.find("10"), std::string::npos) << best;
  Position pos;
  std::string err;
  ASSERT_TRUE(pos.set_fen("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
                          Ruleset::XIANGQI, &err));
  Move m;
  ASSERT_EQ(best.size(), 4u) << text;
  std::string one_based = best.substr(0, 1) + std::to_string(best[1] - '0' + 1) + best.substr(2, 1) +
                          std::to_string(best[3] - '0' + 1);
  EXPECT_TRUE(parse_legal_uci_move(pos, one_based, m, &err)) << err << "\n" << text;
}

}  // namespace
}  // namespace jz
