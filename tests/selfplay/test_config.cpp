// One config file for every command (util/config.h): the section registry, strict checks of a
// command's own sections with file and line, other commands' sections accepted, --set overrides.
#include <gtest/gtest.h>

#include <filesystem>

#include "selfplay/selfplay_config.h"
#include "util/config.h"

namespace jz {
namespace {

Config parsed(const std::string& text, const std::string& source = "c.yaml") {
  Config c;
  std::string err;
  EXPECT_TRUE(c.parse(text, source, &err)) << err;
  return c;
}

// What `selfplay` does with a config: read its options, then check its sections.
std::string selfplay_check(Config& c) {
  SelfPlayOptions o;
  std::string err;
  if (!load_selfplay_options(c, o, &err)) return err;
  if (!c.check_sections(config_sections_of("selfplay"), &err)) return err;
  return "";
}

TEST(ConfigSections, Registry) {
  EXPECT_EQ(config_sections(), (std::vector<std::string>{"selfplay", "search", "network", "training", "evaluation"}));
  EXPECT_EQ(config_sections_of("selfplay"), (std::vector<std::string>{"selfplay", "search", "network"}));
  EXPECT_EQ(config_sections_of("soak"), config_sections_of("selfplay"));
  EXPECT_EQ(config_sections_of("train"), config_sections());
  EXPECT_EQ(config_sections_of("cluster"), config_sections());
  EXPECT_THROW(config_sections_of("perft"), std::invalid_argument);
}

TEST(ConfigSections, OtherCommandsSectionsAreAcceptedUnread) {
  Config c = parsed(
      "selfplay:\n  max_plies: 50\nsearch:\n  gumbel: true\ntraining:\n  lr: 0.1\n  lr_typo: 3\n"
      "evaluation:\n  games: 4\n");
  EXPECT_EQ(selfplay_check(c), "");
  // A command that reads training.* (here: the one key it knows) refuses the typo, with its line.
  c.get_double("training.lr", 0);
  c.get_int("evaluation.games", 0);
  std::string err;
  EXPECT_FALSE(c.check_sections(config_sections_of("train"), &err));
  EXPECT_EQ(err, "c.yaml:7: unknown option 'training.lr_typo'");
}

TEST(ConfigSections, UnknownKeyInOwnSectionHasFileAndLine) {
  Config c = parsed("# comment\nselfplay:\n  max_plies: 50\n  max_pliez: 60\nnetwork:\n  batch: 8\n", "cfg/x.yaml");
  EXPECT_EQ(selfplay_check(c), "cfg/x.yaml:4: unknown option 'selfplay.max_pliez'");
  Config n = parsed("selfplay:\n  max_plies: 50\nnetwork:\n  batch: 8\n  bach: 9\n", "n.yaml");
  EXPECT_EQ(selfplay_check(n), "n.yaml:5: unknown option 'network.bach'");
}

TEST(ConfigSections, UnknownTopLevelSectionIsAnErrorForEveryCommand) {
  const std::string text = "selfplay:\n  max_plies: 50\nsurch:\n  gumbel: true\n";
  for (const char* cmd : {"selfplay", "soak", "train", "cluster"}) {
    Config c = parsed(text);
    c.get_int("selfplay.max_plies", 0);  // read, as every one of these commands does
    std::string err;
    EXPECT_FALSE(c.check_sections(config_sections_of(cmd), &err)) << cmd;
    EXPECT_EQ(err.rfind("c.yaml:3: unknown section 'surch'", 0), 0u) << err;
  }
  // An empty unknown section, and a key outside any section.
  Config e = parsed("selfplay:\n  max_plies: 50\nextra:\n");
  EXPECT_EQ(selfplay_check(e).rfind("c.yaml:3: unknown section 'extra'", 0), 0u);
  Config k = parsed("max_plies: 50\n");
  EXPECT_EQ(selfplay_check(k).rfind("c.yaml:1: 'max_plies' is not in a section", 0), 0u);
}

TEST(ConfigSections, FirstProblemInFileOrder) {
  Config c = parsed("selfplay:\n  zz_unknown: 1\n  aa_unknown: 2\n");
  EXPECT_EQ(selfplay_check(c), "c.yaml:2: unknown option 'selfplay.zz_unknown'");
}

TEST(ConfigSections, SetOverridesAreCheckedAndNamed) {
  Config c = parsed("selfplay:\n  max_plies: 50\n");
  std::string err;
  ASSERT_TRUE(c.set_override("selfplay.max_plies=70", &err));
  ASSERT_TRUE(c.set_override("training.lr=0.5", &err));  // another command's section: accepted
  SelfPlayOptions o;
  ASSERT_TRUE(load_selfplay_options(c, o, &err)) << err;
  EXPECT_EQ(o.max_plies, 70);
  EXPECT_TRUE(c.check_sections(config_sections_of("selfplay"), &err)) << err;
  EXPECT_EQ(c.where("selfplay.max_plies"), "--set selfplay.max_plies=70");

  Config bad = parsed("selfplay:\n  max_plies: 50\n");
  ASSERT_TRUE(bad.set_override("selfplay.bogus=1", &err));
  EXPECT_EQ(selfplay_check(bad), "--set selfplay.bogus=1: unknown option 'selfplay.bogus'");
  Config val = parsed("selfplay:\n  max_plies: 50\n");
  ASSERT_TRUE(val.set_override("selfplay.max_plies=many", &err));
  EXPECT_EQ(selfplay_check(val).rfind("--set selfplay.max_plies=many: 'selfplay.max_plies' must be an integer", 0), 0u);
  EXPECT_FALSE(val.set_override("no-equals-sign", &err));
}

TEST(ConfigSections, BadValueHasFileAndLine) {
  Config c = parsed("selfplay:\n  rules: janggi\n  max_plies: lots\n");
  EXPECT_EQ(selfplay_check(c), "c.yaml:3: 'selfplay.max_plies' must be an integer, got 'lots'");
}

// Every shipped preset works for self-play (the train/cluster side: tests/apps/config_cli_test.sh).
TEST(ConfigSections, ShippedConfigsPassSelfPlayChecks) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(JZ_CONFIGS_DIR)) {
    if (e.path().extension() != ".yaml") continue;
    Config c;
    std::string err;
    ASSERT_TRUE(c.load(e.path().string(), &err)) << err;
    EXPECT_EQ(selfplay_check(c), "") << e.path();
    ++n;
  }
  EXPECT_GE(n, 3);
}

}  // namespace
}  // namespace jz
