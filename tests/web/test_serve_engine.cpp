// Which engines `serve` offers (web/serve_engine.h): --no-model, --model, and the default model
// (JZ_MODEL), which is a level whenever it loads and the default only by its strength record; and
// the engine slots that keep a level's limit from the request (web/engine_slots.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "web/games.h"
#include "web/serve_engine.h"

using namespace jz;
namespace fs = std::filesystem;

namespace {

// JZ_MODEL (or another variable) set to `path` while it lives (the previous value back after).
struct ModelEnv {
  std::string var, old;
  bool had = false;
  explicit ModelEnv(const std::string& path, const char* name = "JZ_MODEL") : var(name) {
    if (const char* e = std::getenv(name)) old = e, had = true;
    setenv(name, path.c_str(), 1);
  }
  ~ModelEnv() { had ? setenv(var.c_str(), old.c_str(), 1) : unsetenv(var.c_str()); }
};

const std::string ZERO = std::string(JZ_SOURCE_DIR) + "/models/zero.jzn";

}  // namespace

TEST(ServeEngines, NoModelServesExpertWithoutANetwork) {
  ServeEngines e;
  std::string err;
  ASSERT_TRUE(choose_serve_engines(ZERO, true, e, &err)) << err;  // --no-model wins over --model
  EXPECT_EQ(e.net, nullptr);
  EXPECT_EQ(e.default_level, "expert");
  EXPECT_EQ(e.default_reason, "--no-model");
}

TEST(ServeEngines, AChosenModelIsTheDefaultOrAClearError) {
  ServeEngines e;
  std::string err;
  ASSERT_TRUE(choose_serve_engines(ZERO, false, e, &err)) << err;
  ASSERT_NE(e.net, nullptr);
  EXPECT_EQ(e.default_level, "net");
  EXPECT_EQ(e.default_reason, "--model");
  EXPECT_NE(e.network_strength, "");  // models/zero.json has a strength list
  EXPECT_FALSE(choose_serve_engines("/nonexistent/net.jzn", false, e, &err));
  EXPECT_NE(err.find("/nonexistent/net.jzn"), std::string::npos) << err;
}

TEST(ServeEngines, ADefaultModelThatDoesNotLoadLeavesAlphaBetaWithAWarning) {
  fs::path dir = fs::temp_directory_path() / ("jz_serve_engine_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "latest.jzn") << "not a model";
  ModelEnv env((dir / "latest.jzn").string());
  ServeEngines e;
  std::string err;
  ASSERT_TRUE(choose_serve_engines("", false, e, &err)) << err;
  EXPECT_EQ(e.net, nullptr);
  EXPECT_EQ(e.default_level, "expert");
  EXPECT_NE(e.warning.find("alpha-beta levels only"), std::string::npos) << e.warning;
  // The real default model loads and is offered; its record decides the default level (expert
  // while the network loses to it).
  ModelEnv real(ZERO);
  ASSERT_TRUE(choose_serve_engines("", false, e, &err)) << err;
  ASSERT_NE(e.net, nullptr);
  EXPECT_EQ(e.warning, "");
  EXPECT_EQ(e.default_level, "expert");
  EXPECT_NE(e.default_reason, "");
  fs::remove_all(dir);
}

// A network plays its own game: the Janggi network given as Xiangqi's is refused naming both games,
// and with no Xiangqi network (none ships yet) Xiangqi is served by alpha-beta, expert by default.
TEST(ServeEngines, EachGameHasItsOwnNetwork) {
  GameEngines x;
  std::string err;
  EXPECT_FALSE(choose_game_engines(GameKind::XIANGQI, ZERO, false, x, &err));
  EXPECT_NE(err.find("plays janggi, not xiangqi"), std::string::npos) << err;
  EXPECT_EQ(x.net, nullptr);
  ServeEngines e;
  EXPECT_FALSE(choose_serve_engines(ZERO, false, e, &err, ZERO));
  ModelEnv none("none", "JZ_MODEL_XIANGQI");  // whatever models/ holds by then
  ASSERT_TRUE(choose_serve_engines(ZERO, false, e, &err, "")) << err;
  EXPECT_NE(e.net, nullptr);
  EXPECT_EQ(e.xiangqi.net, nullptr);
  EXPECT_EQ(e.xiangqi.default_level, "expert");
}

// Twelve engine requests at once on a store with two engine slots and a 300-ms cap: each is answered
// within the cap counted from its request (with slack for a loaded machine) or told "busy" (503);
// none is lost, and the first ones are answered.
TEST(EngineSlots, ALevelsLimitHoldsFromTheRequestOrTheServerSaysBusy) {
  ServerOptions o;
  o.engine_slots = 2;
  o.max_think_ms = 300;
  GameStore store(o, nullptr);
  std::vector<std::string> ids;
  for (int i = 0; i < 12; ++i) {
    ApiReply r = store.new_game(R"({"human":"han","level":"expert"})");  // the engine (Cho) moves first
    ASSERT_EQ(r.status, 200) << r.body;
    ids.push_back(nlohmann::json::parse(r.body)["id"]);
  }
  std::vector<int> status(12);
  std::vector<double> ms(12);
  std::vector<std::string> body(12);
  std::vector<std::thread> threads;
  for (int i = 0; i < 12; ++i)
    threads.emplace_back([&, i] {
      auto t0 = std::chrono::steady_clock::now();
      ApiReply r = store.engine_move(nlohmann::json{{"id", ids[size_t(i)]}}.dump());
      ms[size_t(i)] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      status[size_t(i)] = r.status, body[size_t(i)] = r.body;
    });
  for (auto& t : threads) t.join();
  int answered = 0;
  for (int i = 0; i < 12; ++i) {
    ASSERT_TRUE(status[size_t(i)] == 200 || status[size_t(i)] == 503) << status[size_t(i)] << " " << body[size_t(i)];
    if (status[size_t(i)] == 503) {
      EXPECT_NE(body[size_t(i)].find("busy"), std::string::npos) << body[size_t(i)];
      continue;
    }
    ++answered;
    auto j = nlohmann::json::parse(body[size_t(i)]);
    EXPECT_LE(j["eval"]["think_ms"].get<int>(), 300 * 2) << body[size_t(i)];  // 2x: slack for a loaded machine
    EXPECT_LE(ms[size_t(i)], 300 * 2 + 100);
  }
  EXPECT_GE(answered, 2);
  std::printf("engine slots: %d of 12 answered within the limit, %d told busy\n", answered, 12 - answered);
}
