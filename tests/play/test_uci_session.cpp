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
#endif

}  // namespace
}  // namespace jz
