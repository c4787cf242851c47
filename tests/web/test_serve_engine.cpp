// Which engines `serve` offers (web/serve_engine.h): --no-model, --model, and the default model
// (JZ_MODEL), which is a level whenever it loads and the default only by its strength record.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "web/serve_engine.h"

using namespace jz;
namespace fs = std::filesystem;

namespace {

// JZ_MODEL set to `path` while it lives (the previous value back after).
struct ModelEnv {
  std::string old;
  bool had = false;
  explicit ModelEnv(const std::string& path) {
    if (const char* e = std::getenv("JZ_MODEL")) old = e, had = true;
    setenv("JZ_MODEL", path.c_str(), 1);
  }
  ~ModelEnv() { had ? setenv("JZ_MODEL", old.c_str(), 1) : unsetenv("JZ_MODEL"); }
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
