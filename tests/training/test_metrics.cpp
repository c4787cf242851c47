// training/csv_log: rows by column name, atomic rewrites, and resume rules.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>

#include "tests/support/test_support.h"
#include "training/csv_log.h"

namespace jz {
namespace {

TEST(CsvLog, RowsByNameLandUnderTheirColumns) {
  test::TempDir dir("csvlog");
  const std::string path = dir.file("m.csv");
  CsvLog log(path, {"step", "loss", "network"}, 0);
  log.add({{"network", "net-1"}, {"step", "10"}, {"loss", "0.5"}});
  log.add({{"step", "20"}});  // unnamed columns stay empty
  std::string err;
  ASSERT_TRUE(log.flush(&err)) << err;
  EXPECT_EQ(test::slurp(path), "step,loss,network\n10,0.5,net-1\n20,,\n");
  EXPECT_THROW(log.add({{"step", "30"}, {"no_such_column", "1"}}), std::invalid_argument);
  CsvTable t;
  ASSERT_TRUE(read_csv(path, t, &err)) << err;
  EXPECT_EQ(t.column("network"), 2);
  EXPECT_EQ(t.rows.size(), 2u);
}

TEST(CsvLog, ResumeKeepsRowsUpToTheStepAndGrowsColumns) {
  test::TempDir dir("csvlog");
  const std::string path = dir.file("m.csv");
  std::ofstream(path) << "step,loss\n10,1\n20,2\n30,3\n";
  CsvLog log(path, {"step", "loss", "cpu_hours"}, 20);  // a newer version added a column
  EXPECT_EQ(log.rows(), 2u);
  log.add({{"step", "30"}, {"loss", "2.5"}, {"cpu_hours", "0.1"}});
  std::string err;
  ASSERT_TRUE(log.flush(&err)) << err;
  EXPECT_EQ(test::slurp(path), "step,loss,cpu_hours\n10,1,\n20,2,\n30,2.5,0.1\n");
  // Another header is not ours: the file is moved aside, not mixed.
  CsvLog other(path, {"epoch", "acc"}, 100);
  EXPECT_EQ(other.rows(), 0u);
  EXPECT_FALSE(test::slurp(path + ".old").empty());
}

}  // namespace
}  // namespace jz
