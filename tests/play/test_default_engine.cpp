// The default engine of `uci`, `play` and `serve` (play/default_engine.h): the network only when its
// strength record shows it beats alpha-beta expert at the same time per move, else alpha-beta expert;
// and the UCI session saying which engine plays and why, explicit options first.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "play/default_engine.h"
#include "play/uci_session.h"
#include "tests/support/test_support.h"

namespace jz {
namespace {

namespace fs = std::filesystem;
using jz::test::slurp;

std::string fixture(const std::string& name) { return std::string(JZ_PLAY_FIXTURES) + "/" + name; }

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A folder with models/latest.jzn (not a loadable model: the tests must not need one) and, if given,
// the fixture as models/latest.json; JZ_MODEL points at the model while it lives.
struct ModelDir {
  fs::path dir;
  std::string old_env;
  bool had_env = false;
  explicit ModelDir(const std::string& record_fixture) {
    dir = fs::temp_directory_path() / ("jz_default_engine_" + std::to_string(::getpid()) + "_" + record_fixture);
    fs::create_directories(dir);
    std::ofstream(dir / "latest.jzn") << "not a model";
    if (!record_fixture.empty())
      fs::copy_file(fixture(record_fixture), dir / "latest.json", fs::copy_options::overwrite_existing);
    if (const char* e = std::getenv("JZ_MODEL")) old_env = e, had_env = true;
    setenv("JZ_MODEL", model().c_str(), 1);
  }
  ~ModelDir() {
    if (had_env)
      setenv("JZ_MODEL", old_env.c_str(), 1);
    else
      unsetenv("JZ_MODEL");
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string model() const { return (dir / "latest.jzn").string(); }
};

std::string uci(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  std::istringstream in(text);
  std::ostringstream out;
  run_uci(in, out);
  return out.str();
}

TEST(DefaultEngine, RecordThatBeatsExpert) {
  StrengthVerdict v = judge_strength_record(slurp(fixture("strength_beats_expert.json")), "r.json");
  EXPECT_TRUE(v.beats_expert);
  EXPECT_EQ(v.reason,
            "r.json: the network scored 0.58 in 200 games against alphabeta:level=expert at 1000 ms per move");
}

TEST(DefaultEngine, RecordThatLosesToExpert) {
  StrengthVerdict v = judge_strength_record(slurp(fixture("strength_loses_to_expert.json")), "r.json");
  EXPECT_FALSE(v.beats_expert);
  EXPECT_TRUE(has(v.reason, "scored 0.31 in 100 games against alphabeta:level=expert at 100 ms per move")) << v.reason;
  EXPECT_TRUE(has(v.reason, "above 0.5")) << v.reason;
}

TEST(DefaultEngine, OnlyAClearExpertWinCounts) {
  auto judge = [](const std::string& text) { return judge_strength_record(text, "r.json"); };
  const std::string e = R"({"vs": "alphabeta:level=expert", "movetime_ms": 500, "games": 10, )";
  EXPECT_FALSE(judge(R"({"strength": [)" + e + R"("score": 0.5}]})").beats_expert);  // not above 0.5
  EXPECT_TRUE(judge(R"({"strength": )" + e + R"("score": 0.51}})").beats_expert);    // one entry, no list
  // Every recorded match against expert must be a win.
  EXPECT_FALSE(judge(R"({"strength": [)" + e + R"("score": 0.7}, )" + e + R"("score": 0.4}]})").beats_expert);
  // Wins against other opponents, or another expert spec, do not count.
  StrengthVerdict other =
      judge(R"({"strength": [{"vs": "alphabeta:level=normal", "movetime_ms": 500, "games": 10, "score": 1}]})");
  EXPECT_FALSE(other.beats_expert);
  EXPECT_TRUE(has(other.reason, "records no match against alphabeta:level=expert")) << other.reason;
  EXPECT_FALSE(
      judge(R"({"strength": [{"vs": "alphabeta:depth=1", "movetime_ms": 5, "games": 1, "score": 1}]})").beats_expert);
  // The results the project recorded before this rule (free text) say nothing about expert.
  EXPECT_FALSE(judge(R"({"results": {"vs_alphabeta_easy": "0/100"}})").beats_expert);
}

TEST(DefaultEngine, MalformedRecordsAreNotWins) {
  auto reason = [](const std::string& text) {
    StrengthVerdict v = judge_strength_record(text, "r.json");
    EXPECT_FALSE(v.beats_expert) << text;
    return v.reason;
  };
  EXPECT_EQ(reason("{\"strength\": ["), "r.json is not valid JSON");
  EXPECT_EQ(reason("[1, 2]"), "r.json is not a JSON object");
  EXPECT_TRUE(has(reason(R"({"strength": "won"})"), "\"strength\" must be a list")) << reason(R"({"strength": "won"})");
  const std::string vs = R"({"strength": [{"vs": "alphabeta:level=expert", )";
  EXPECT_TRUE(has(reason(vs + R"("games": 10, "score": 0.9}]})"), "\"movetime_ms\""));  // time missing
  EXPECT_TRUE(has(reason(vs + R"("movetime_ms": "1s", "games": 10, "score": 0.9}]})"), "\"movetime_ms\""));
  EXPECT_TRUE(has(reason(vs + R"("movetime_ms": 100, "score": 0.9}]})"), "\"games\""));
  EXPECT_TRUE(has(reason(vs + R"("movetime_ms": 100, "games": 10, "score": 1.5}]})"), "\"score\""));
  EXPECT_TRUE(has(reason(vs + R"("movetime_ms": 100, "games": 10}]})"), "\"score\""));
  EXPECT_TRUE(has(reason(R"({"network_id": 7, "strength": []})"), "\"network_id\""));
}

TEST(DefaultEngine, ChoiceFromFiles) {
  EXPECT_EQ(strength_record_path("a/models/latest.jzn"), "a/models/latest.json");
  EXPECT_EQ(strength_record_path("net.bin"), "net.bin.json");

  DefaultEngine none = choose_default_engine("");
  EXPECT_FALSE(none.network);
  EXPECT_TRUE(has(none.reason, "no network model found")) << none.reason;

  ModelDir missing("");
  DefaultEngine m = choose_default_engine(missing.model());
  EXPECT_FALSE(m.network);
  EXPECT_EQ(m.reason, strength_record_path(missing.model()) +
                          " not found: the network's strength against "
                          "alphabeta:level=expert is unknown");
  fs::create_directory(missing.dir / "latest.json");  // a directory: cannot be read
  DefaultEngine u = choose_default_engine(missing.model());
  EXPECT_FALSE(u.network);
  EXPECT_TRUE(has(u.reason, "cannot read")) << u.reason;

  ModelDir wins("strength_beats_expert.json");
  DefaultEngine w = choose_default_engine(wins.model());
  EXPECT_TRUE(w.network);
  EXPECT_EQ(w.model_path, wins.model());
  ModelDir loses("strength_loses_to_expert.json");
  EXPECT_FALSE(choose_default_engine(loses.model()).network);
}

TEST(DefaultEngine, LoadedNetworkMustBeTheMeasuredOne) {
  DefaultEngine d;
  d.network = true;
  d.model_path = "models/latest.jzn";
  d.network_id = "latest.jzn@1a2b3c4d";
  EXPECT_TRUE(confirm_default_network(d, "copy.jzn@1a2b3c4d"));  // same content, other name
  EXPECT_FALSE(confirm_default_network(d, "latest.jzn@99999999"));
  EXPECT_FALSE(d.network);
  EXPECT_TRUE(has(d.reason, "latest.jzn@1a2b3c4d")) << d.reason;
  DefaultEngine no_id;
  no_id.network = true;
  EXPECT_TRUE(confirm_default_network(no_id, "x.jzn@00000000"));  // nothing to compare
  default_network_failed(no_id, "bad magic");
  EXPECT_FALSE(no_id.network);
  EXPECT_TRUE(has(no_id.reason, "bad magic"));
}

// The first info string says which engine plays and why.
TEST(DefaultEngine, UciSaysAlphaBetaExpertWhenTheRecordLoses) {
  ModelDir d("strength_loses_to_expert.json");
  std::string out = uci({"uci", "isready", "quit"});
  EXPECT_TRUE(has(out, "option name UseNetwork type combo default auto var auto var true var false")) << out;
  EXPECT_TRUE(has(out, "option name ModelPath type string default <default>")) << out;
  size_t first = out.find("info string ");
  ASSERT_NE(first, std::string::npos) << out;
  std::string line = out.substr(first, out.find('\n', first) - first);
  EXPECT_EQ(line.rfind("info string engine: alpha-beta expert (default: ", 0), 0u) << line;
  EXPECT_TRUE(has(line, "scored 0.31 in 100 games against alphabeta:level=expert")) << line;
  EXPECT_FALSE(has(out, "cannot use model")) << out;  // the model was not even opened
  EXPECT_TRUE(has(out, "readyok"));
}

TEST(DefaultEngine, UciTakesTheNetworkWhenTheRecordWins) {
  // The fixture model is not loadable, so the session says it tried and plays alpha-beta expert.
  ModelDir d("strength_beats_expert.json");
  std::string out = uci({"isready", "quit"});
  EXPECT_TRUE(has(out, "info string engine: alpha-beta expert (default: cannot load " + d.model())) << out;
}

TEST(DefaultEngine, UciExplicitChoicesWin) {
  ModelDir d("strength_beats_expert.json");
  std::string out = uci({"setoption name UseNetwork value false", "isready", "quit"});
  EXPECT_TRUE(has(out, "info string engine: alpha-beta expert (UseNetwork false)")) << out;
  out = uci({"setoption name Level value easy", "isready", "quit"});
  EXPECT_TRUE(has(out, "info string engine: alpha-beta easy (Level easy)")) << out;
  out = uci({"setoption name ModelPath value <empty>", "isready", "quit"});
  EXPECT_TRUE(has(out, "info string engine: alpha-beta expert (ModelPath <empty>)")) << out;
  out = uci({"setoption name ModelPath value " + d.model(), "isready", "quit"});
  EXPECT_TRUE(has(out, "info string error: cannot use model '" + d.model() + "'")) << out;
  out = uci({"setoption name UseNetwork value maybe", "isready", "quit"});
  EXPECT_TRUE(has(out, "info string error: UseNetwork needs auto, true or false")) << out;
  // A changed choice is announced again; an unchanged one is not.
  out = uci({"isready", "isready", "setoption name Level value normal", "isready", "quit"});
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 5) << out;  // 2 engine lines, 3 readyok
  EXPECT_TRUE(has(out, "info string engine: alpha-beta normal (Level normal)")) << out;
}

}  // namespace
}  // namespace jz
