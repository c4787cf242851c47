#include <gtest/gtest.h>

#include "core/rules.h"
#include "replay/game_record.h"
#include "replay/replay_format.h"
#include "tests/support/random_games.h"

namespace jz {
namespace {

void expect_same(const GameRecord& a, const GameRecord& b) {
  EXPECT_EQ(a.start_fen, b.start_fen);
  EXPECT_EQ(a.ruleset, b.ruleset);
  EXPECT_EQ(a.setup, b.setup);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.network_id, b.network_id);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.origin, b.origin);
  EXPECT_EQ(a.winner, b.winner);
  EXPECT_EQ(a.ending, b.ending);
  EXPECT_EQ(a.flags, b.flags);
  EXPECT_EQ(a.would_resign, b.would_resign);
  EXPECT_EQ(a.final_margin, b.final_margin);
  ASSERT_EQ(a.num_plies(), b.num_plies());
  for (int i = 0; i < a.num_plies(); ++i) {
    const PlyRecord &p = a.plies[i], &q = b.plies[i];
    EXPECT_EQ(p.move, q.move);
    EXPECT_EQ(p.full_search, q.full_search);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(p.wdl[k], q.wdl[k]);
    ASSERT_EQ(p.policy_size, q.policy_size);
    for (int k = 0; k < p.policy_size; ++k) {
      EXPECT_EQ(a.policy[p.policy_begin + k].move, b.policy[q.policy_begin + k].move);
      EXPECT_EQ(a.policy[p.policy_begin + k].prob, b.policy[q.policy_begin + k].prob);
    }
  }
}

TEST(ReplayFormat, RoundTrip) {
  std::mt19937_64 rng(1);
  std::vector<GameRecord> games;
  for (int r = 0; r < RULESET_NB; ++r)
    for (int i = 0; i < 3; ++i) games.push_back(test::random_game(rng, Ruleset(r)));
  games[0].flags |= GAME_FLAG_NO_RESIGN | GAME_FLAG_WOULD_RESIGN;
  games[0].would_resign = HAN;
  games[1].source = GameSource::IMPORT;
  games[1].origin = "friendly.gib#0";
  games[2].source = GameSource::TEACHER;
  // Every ending reads back, the newest included (a reader that stopped at 'time' lost Xiangqi's
  // stalemates and same-piece-check draws).
  for (int e = 0; e < ENDING_NB; ++e) games[size_t(e) % games.size()].ending = Ending(e);
  games.back().ending = Ending::STALEMATE;
  std::string bytes = encode_chunk(games, 1234567);
  ChunkHeader h;
  std::vector<GameRecord> back;
  std::string err;
  ASSERT_TRUE(decode_chunk(bytes, h, back, &err)) << err;
  EXPECT_EQ(h.version, CHUNK_VERSION);
  EXPECT_EQ(h.created_ms, 1234567u);
  EXPECT_EQ(h.game_count, games.size());
  uint32_t positions = 0;
  for (auto& g : games) positions += g.num_plies();
  EXPECT_EQ(h.position_count, positions);
  ASSERT_EQ(back.size(), games.size());
  for (size_t i = 0; i < games.size(); ++i) expect_same(games[i], back[i]);
}

TEST(ReplayFormat, EmptyChunkRoundTrips) {
  std::string bytes = encode_chunk({}, 5);
  ChunkHeader h;
  std::vector<GameRecord> back;
  std::string err;
  ASSERT_TRUE(decode_chunk(bytes, h, back, &err)) << err;
  EXPECT_TRUE(back.empty());
}

TEST(ReplayFormat, QuantizedProbabilities) {
  EXPECT_EQ(quantize_prob(0), 0);
  EXPECT_EQ(quantize_prob(1), 65535);
  EXPECT_EQ(quantize_prob(-3), 0);
  EXPECT_EQ(quantize_prob(7), 65535);
  EXPECT_NEAR(dequantize_prob(quantize_prob(0.3f)), 0.3f, 1e-5);
}

TEST(ReplayFormat, EveryTruncationIsRejected) {
  std::mt19937_64 rng(2);
  std::vector<GameRecord> games{test::random_game(rng, Ruleset::JANGGI, 60),
                                test::random_game(rng, Ruleset::MODERN, 60)};
  std::string bytes = encode_chunk(games, 42);
  ChunkHeader h;
  std::vector<GameRecord> back;
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::string err;
    EXPECT_FALSE(decode_chunk(bytes.substr(0, n), h, back, &err)) << "prefix " << n;
    EXPECT_FALSE(err.empty());
  }
  // Extra bytes are rejected too.
  std::string err;
  EXPECT_FALSE(decode_chunk(bytes + "x", h, back, &err));
}

TEST(ReplayFormat, EveryFlippedByteIsRejected) {
  std::mt19937_64 rng(3);
  std::vector<GameRecord> games{test::random_game(rng, Ruleset::JANGGI, 60)};
  std::string bytes = encode_chunk(games, 42);
  ChunkHeader h;
  std::vector<GameRecord> back;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit : {0, 7}) {
      std::string bad = bytes;
      bad[i] = char(bad[i] ^ (1 << bit));
      std::string err;
      EXPECT_FALSE(decode_chunk(bad, h, back, &err)) << "byte " << i << " bit " << bit;
    }
  }
}

TEST(ReplayFormat, FutureVersionAndBadMagicAreRejected) {
  std::string bytes = encode_chunk({}, 1);
  ChunkHeader h;
  std::vector<GameRecord> back;
  std::string err;
  std::string v3 = bytes;
  v3[8] = char(CHUNK_VERSION + 1);
  EXPECT_FALSE(decode_chunk(v3, h, back, &err));
  EXPECT_NE(err.find("version"), std::string::npos) << err;
  std::string magic = bytes;
  magic[0] = 'X';
  EXPECT_FALSE(decode_chunk(magic, h, back, &err));
  EXPECT_NE(err.find("magic"), std::string::npos) << err;
}

// Version-1 chunks (no source, no origin) written before version 2 still read, as self-play games.
TEST(ReplayFormat, Version1ChunksStillRead) {
  std::mt19937_64 rng(7);
  std::vector<GameRecord> games = {test::random_game(rng, Ruleset::JANGGI), test::random_game(rng, Ruleset::CASUAL)};
  std::string v1 = encode_chunk(games, 99, 3, 1);
  ChunkHeader h;
  std::vector<GameRecord> back;
  std::string err;
  ASSERT_TRUE(decode_chunk(v1, h, back, &err)) << err;
  EXPECT_EQ(h.version, 1);
  ASSERT_EQ(back.size(), 2u);
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(back[i].source, GameSource::SELFPLAY);
    expect_same(games[i], back[i]);
  }
  // The same games as version 2 take exactly the source byte and origin length more per game.
  std::string v2 = encode_chunk(games, 99, 3);
  ASSERT_TRUE(decode_chunk(v2, h, back, &err)) << err;
  ChunkHeader h1;
  ASSERT_TRUE(decode_chunk_header(v1, h1, &err));
  EXPECT_EQ(h.uncompressed_size, h1.uncompressed_size + 3 * games.size());
}

// The CRC covers the bytes, not their meaning: a well-formed chunk with nonsense fields must still
// be rejected by the range checks, not crash.
TEST(ReplayFormat, GarbageFieldsWithValidCrcAreRejected) {
  std::mt19937_64 rng(4);
  GameRecord g = test::random_game(rng, Ruleset::JANGGI, 20);
  GameRecord bad = g;
  bad.plies[3].move.raw = 0x3FFF;  // square 127
  std::string err;
  ChunkHeader h;
  std::vector<GameRecord> back;
  EXPECT_FALSE(decode_chunk(encode_chunk({bad}, 1), h, back, &err));
  bad = g;
  bad.ruleset = Ruleset(9);
  EXPECT_FALSE(decode_chunk(encode_chunk({bad}, 1), h, back, &err));
  bad = g;
  bad.start_fen.clear();
  EXPECT_FALSE(decode_chunk(encode_chunk({bad}, 1), h, back, &err));
}

}  // namespace
}  // namespace jz
