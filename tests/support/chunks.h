// Every game of every replay chunk under a folder, for tests that check what a run wrote.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "replay/chunk_reader.h"

namespace jz::test {

inline std::vector<GameRecord> read_all_chunks(const std::string& dir) {
  std::vector<GameRecord> all;
  for (const std::string& f : list_chunk_files(dir)) {
    ChunkHeader h;
    std::vector<GameRecord> gs;
    std::string err;
    EXPECT_TRUE(read_chunk_file(f, h, gs, &err)) << err;
    for (auto& g : gs) all.push_back(std::move(g));
  }
  return all;
}

}  // namespace jz::test
