// Model files and tensor bundles: round trips, bit-exact reload, refusal of damaged files.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "nn/checkpoint.h"
#include "nn/encoding.h"
#include "nn/model_header.h"
#include "nn/policy_map.h"
#include "util/fileio.h"

using namespace jz;

namespace {

std::string temp_path(const std::string& name) {
  static std::string dir = [] {
    std::string d = "/tmp/jz_nn_tests_" + std::to_string(getpid());
    make_dirs(d);
    return d;
  }();
  return dir + "/" + name;
}

ModelConfig tiny() {
  ModelConfig c;
  std::string err;
  EXPECT_TRUE(ModelConfig::parse("4x32", c, &err)) << err;
  return c;
}

std::string read(const std::string& path) {
  std::string s, err;
  EXPECT_TRUE(read_file(path, s, &err)) << err;
  return s;
}

void write(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// Expects loading to throw with a message that names the file and contains `what`.
void expect_refused(const std::string& path, const std::string& what, JanggiNet* into = nullptr) {
  try {
    if (into)
      load_model_into(path, *into);
    else
      load_model(path);
    FAIL() << "loaded " << path;
  } catch (const std::runtime_error& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

}  // namespace

TEST(ModelConfig, ParsesNamedSizes) {
  ModelConfig c;
  std::string err;
  ASSERT_TRUE(ModelConfig::parse("10x128", c, &err));
  EXPECT_EQ(c.blocks, 10);
  EXPECT_EQ(c.filters, 128);
  EXPECT_EQ(c.name(), "10x128");
  EXPECT_FALSE(ModelConfig::parse("10x", c, &err));
  EXPECT_FALSE(ModelConfig::parse("ax32", c, &err));
  EXPECT_FALSE(ModelConfig::parse("4x32x", c, &err));
  EXPECT_NE(err.find("4x32x"), std::string::npos);
}

TEST(TensorBundle, RoundTripsDtypesShapesAndHeader) {
  torch_init_threads();
  NamedTensors t = {{"f", torch::randn({3, 4})},
                    {"bf", torch::randn({5}).to(torch::kBFloat16)},
                    {"i", torch::arange(10, torch::kInt64).view({2, 5})},
                    {"b", torch::tensor({true, false, true})},
                    {"scalar", torch::tensor(3.5)},
                    {"empty", torch::empty({0, 3})}};
  HeaderKV h = {{"kind", "test"}, {"note", std::string("with\0zero", 9)}};
  std::string path = temp_path("bundle.jzb");
  save_tensor_bundle(path, h, t);
  TensorBundle b = load_tensor_bundle(path);
  EXPECT_EQ(b.header, h);
  ASSERT_EQ(b.tensors.size(), t.size());
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_EQ(b.tensors[i].first, t[i].first);
    EXPECT_EQ(b.tensors[i].second.scalar_type(), t[i].second.scalar_type());
    EXPECT_TRUE(torch::equal(b.tensors[i].second, t[i].second)) << t[i].first;
  }
  EXPECT_EQ(b.get("kind"), "test");
  EXPECT_THROW(b.get("nope"), std::runtime_error);
}

TEST(ModelFile, SaveLoadGivesBitExactOutputs) {
  torch_init_threads();
  torch::manual_seed(1);
  JanggiNet model(tiny());
  // Non-trivial batch norm statistics, so that buffers matter.
  model->train();
  {
    torch::NoGradGuard ng;
    for (int i = 0; i < 3; ++i) model->forward(torch::randn({8, NUM_PLANES, 10, 9}));
  }
  model->eval();
  std::string path = temp_path("model.jzm");
  save_model(path, model, 1234, "hello");
  ModelInfo info;
  JanggiNet loaded = load_model(path, &info);
  EXPECT_EQ(info.config, tiny());
  EXPECT_EQ(info.step, 1234);
  EXPECT_EQ(info.metadata, "hello");
  EXPECT_NE(info.hash, 0u);
  torch::NoGradGuard ng;
  auto x = torch::randn({5, NUM_PLANES, 10, 9});
  ModelOutput a = model->forward(x), b = loaded->forward(x);
  EXPECT_TRUE(torch::equal(a.policy, b.policy));
  EXPECT_TRUE(torch::equal(a.wdl, b.wdl));
  EXPECT_TRUE(torch::equal(a.margin, b.margin));
  EXPECT_TRUE(torch::equal(a.opp_policy, b.opp_policy));
  EXPECT_EQ(a.policy.sizes(), (std::vector<int64_t>{5, POLICY_SIZE}));
  EXPECT_EQ(a.opp_policy.sizes(), (std::vector<int64_t>{5, POLICY_SIZE}));
  // Saving the loaded model reproduces the file byte for byte.
  std::string path2 = temp_path("model2.jzm");
  save_model(path2, loaded, 1234, "hello");
  EXPECT_EQ(read(path), read(path2));
  EXPECT_EQ(read_model_info(path2).hash, info.hash);
}

TEST(ModelFile, AXiangqiNetworkNamesItsGameAndHasItsPolicySize) {
  torch_init_threads();
  ModelConfig c = tiny();
  c.game = GameKind::XIANGQI;
  JanggiNet model(c);
  model->eval();
  std::string path = temp_path("xiangqi.jzn");
  save_model(path, model, 5, "xq");
  ModelInfo info;
  JanggiNet loaded = load_model(path, &info);
  EXPECT_EQ(info.config.game, GameKind::XIANGQI);
  EXPECT_EQ(info.config, c);
  bool named = false;
  for (auto& [k, v] : model_file_header(c, 5, "xq")) named |= k == "game" && v == "xiangqi";
  EXPECT_TRUE(named);
  torch::NoGradGuard ng;
  auto x = torch::randn({3, NUM_PLANES, 10, 9});
  ModelOutput a = model->forward(x), b = loaded->forward(x);
  EXPECT_EQ(a.policy.sizes(), (std::vector<int64_t>{3, XIANGQI_POLICY_SIZE}));  // no pass output
  EXPECT_EQ(a.opp_policy.sizes(), (std::vector<int64_t>{3, XIANGQI_POLICY_SIZE}));
  EXPECT_TRUE(torch::equal(a.policy, b.policy));
  // A Janggi file without the key (written before Xiangqi) is Janggi; an unknown game is refused.
  HeaderKV h = model_file_header(tiny(), 1, "");
  EXPECT_EQ(check_model_header(h, "x").config.game, GameKind::JANGGI);
  h.erase(std::remove_if(h.begin(), h.end(), [](auto& kv) { return kv.first == "game"; }), h.end());
  EXPECT_EQ(check_model_header(h, "x").config.game, GameKind::JANGGI);
  h.push_back({"game", "shogi"});
  EXPECT_THROW(check_model_header(h, "x"), std::runtime_error);
  // A Xiangqi header claiming Janggi's policy size is refused.
  HeaderKV wrong = model_file_header(c, 1, "");
  for (auto& [k, v] : wrong)
    if (k == "policy_size") v = std::to_string(POLICY_SIZE);
  EXPECT_THROW(check_model_header(wrong, "x"), std::runtime_error);
}

TEST(ModelFile, RandomNetworksAreDeterministicPerSeed) {
  std::string a = temp_path("r1.jzm"), b = temp_path("r2.jzm"), c = temp_path("r3.jzm");
  create_random_network(a, tiny(), 42);
  create_random_network(b, tiny(), 42);
  create_random_network(c, tiny(), 43);
  EXPECT_EQ(read(a), read(b));
  EXPECT_NE(read(a), read(c));
  EXPECT_EQ(read_model_info(a).step, 0);
}

TEST(ModelFile, RefusesDamagedOrForeignFiles) {
  std::string good = temp_path("good.jzm");
  create_random_network(good, tiny(), 1);
  std::string bytes = read(good);

  std::string p = temp_path("truncated.jzm");
  write(p, bytes.substr(0, bytes.size() / 2));
  expect_refused(p, "truncated");
  write(p, bytes.substr(0, 10));
  expect_refused(p, "truncated");
  write(p, "");
  expect_refused(p, "bad magic");

  for (size_t where : {size_t(40), bytes.size() / 2, bytes.size() - 20}) {
    std::string flipped = bytes;
    flipped[where] ^= 0x10;
    p = temp_path("flipped.jzm");
    write(p, flipped);
    expect_refused(p, "checksum");
  }

  std::string magic = bytes;
  magic[0] = 'X';
  p = temp_path("magic.jzm");
  write(p, magic);
  expect_refused(p, "bad magic");

  std::string version = bytes;
  version[8] = 99;
  p = temp_path("version.jzm");
  write(p, version);
  expect_refused(p, "version 99");

  p = temp_path("trailing.jzm");
  write(p, bytes + "x");
  expect_refused(p, "unexpected bytes");

  expect_refused(temp_path("missing.jzm"), "cannot read");

  // A valid bundle that is not a model.
  p = temp_path("notmodel.jzm");
  save_tensor_bundle(p, {{"kind", "optimizer"}}, {});
  expect_refused(p, "not a model file");

  // A model of another size: refused when loading into a 4x32 model.
  ModelConfig big;
  std::string err;
  ASSERT_TRUE(ModelConfig::parse("6x64", big, &err));
  p = temp_path("big.jzm");
  create_random_network(p, big, 1);
  JanggiNet small(tiny());
  expect_refused(p, "architecture mismatch", &small);
  EXPECT_NO_THROW(load_model(p));  // on its own it is fine
}

namespace {

// Rewrites the checksum (last 8 bytes) so that only the edit under test is wrong.
std::string reseal(std::string b) {
  uint64_t h = fnv1a64(b.data(), b.size() - 8);
  std::memcpy(&b[b.size() - 8], &h, 8);
  return b;
}

void replace_once(std::string& s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  s.replace(at, from.size(), to);
}

std::string parse_error(const std::string& bytes) {
  try {
    parse_bundle(bytes, "x.jzn");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST(TensorBundle, RefusesDuplicateNamesOnBothSides) {
  const char data[8] = {};
  std::vector<RawTensor> t = {{"ta", BUNDLE_F32, {2}, data, 8}, {"tb", BUNDLE_I8, {8}, data, 8}};
  std::string bytes = serialize_bundle({{"ka", "1"}, {"kb", "2"}}, t);
  EXPECT_EQ(parse_error(bytes), "accepted");
  std::string dup = bytes;
  replace_once(dup, "kb", "ka");
  EXPECT_NE(parse_error(reseal(dup)).find("duplicate header key 'ka'"), std::string::npos);
  dup = bytes;
  replace_once(dup, "tb", "ta");
  EXPECT_NE(parse_error(reseal(dup)).find("duplicate tensor name 'ta'"), std::string::npos);
  EXPECT_THROW(serialize_bundle({{"k", "1"}, {"k", "2"}}, {}), std::runtime_error);
  t[1].name = "ta";
  EXPECT_THROW(serialize_bundle({}, t), std::runtime_error);
  t[1].bytes = 7;  // does not match 8 x i8
  t[1].name = "tb";
  EXPECT_THROW(serialize_bundle({}, t), std::runtime_error);
}

TEST(TensorBundle, RefusesShapesBeyondTheLimitsWithoutAllocating) {
  const char data[4] = {};
  std::string bytes = serialize_bundle({}, {{"t", BUNDLE_F32, {1}, data, 4}});
  // The dimension 1 becomes 2^62: numel far beyond BUNDLE_MAX_NUMEL.
  std::string big = bytes;
  int64_t one = 1, huge = int64_t(1) << 62;
  replace_once(big, std::string(reinterpret_cast<const char*>(&one), 8),
               std::string(reinterpret_cast<const char*>(&huge), 8));
  EXPECT_NE(parse_error(reseal(big)).find("bad shape of 't'"), std::string::npos);
  int64_t neg = -1;
  std::string negative = bytes;
  replace_once(negative, std::string(reinterpret_cast<const char*>(&one), 8),
               std::string(reinterpret_cast<const char*>(&neg), 8));
  EXPECT_NE(parse_error(reseal(negative)).find("bad shape of 't'"), std::string::npos);
}

TEST(ModelFile, RefusesHeaderFieldsThatDoNotFitAndQuotesThemOnOneLine) {
  std::string good = temp_path("hdr.jzm");
  create_random_network(good, tiny(), 1);
  std::string bytes = read(good);
  RawBundle raw = parse_bundle(bytes, good);
  auto with = [&](const std::string& key, const std::string& value) {
    HeaderKV h = raw.header;
    for (auto& kv : h)
      if (kv.first == key) kv.second = value;
    std::string p = temp_path("hdr-" + key + ".jzm");
    write(p, serialize_bundle(h, raw.tensors));
    return p;
  };
  // 2^32 + 4 blocks must not pass as 4 after narrowing to int.
  expect_refused(with("blocks", "4294967300"), "implausible architecture (blocks=4294967300)");
  expect_refused(with("filters", "0"), "implausible architecture");
  // A value with a line break is quoted (expect_refused also checks for one line).
  expect_refused(with("model_version", "1\n2"), "bad header field model_version='1\\x0a2'");
}

TEST(ModelFile, FuzzSeedIsACurrentModelFile) {
  // fuzz/corpus/model/ holds real files so that fuzzing starts from deep inside the format; when the
  // format changes, regenerate them (fuzz/README.md).
  ModelInfo info;
  JanggiNet net = load_model(JZ_FUZZ_CORPUS "/model/model-1x8.jzn", &info);
  EXPECT_EQ(info.config.name(), "1x8");
}

namespace jz {
namespace {

TEST(ModelFile, EncodingVersion1FilesLoadWithAZeroPlane) {
  torch_init_threads();
  torch::manual_seed(3);
  JanggiNet model(tiny());
  model->eval();
  // The same network as an encoding-1 file: 35 input planes, header says so.
  HeaderKV h = model_file_header(model->config(), 7, "old");
  for (auto& [k, v] : h) {
    if (k == "encoding_version") v = "1";
    if (k == "num_planes") v = "35";
  }
  NamedTensors t;
  for (auto& kv : model->named_parameters()) {
    torch::Tensor x = kv.value().detach().clone();
    if (x.dim() == 4 && x.size(1) == NUM_PLANES) x = x.narrow(1, 0, 35).contiguous();
    t.emplace_back(kv.key(), x);
  }
  for (auto& kv : model->named_buffers()) t.emplace_back(kv.key(), kv.value().detach().clone());
  std::string path = temp_path("v1.jzn");
  save_tensor_bundle(path, h, t);
  ModelInfo info;
  JanggiNet loaded = load_model(path, &info);
  EXPECT_EQ(info.encoding_version, 1);
  // Inputs without the new plane give the old network's outputs; the new plane is ignored.
  torch::NoGradGuard ng;
  auto x = torch::randn({4, NUM_PLANES, 10, 9});
  x.narrow(1, PLANE_PASS_ENDS, 1).zero_();
  auto want = model->forward(x);
  x.narrow(1, PLANE_PASS_ENDS, 1).fill_(1.0f);
  auto got = loaded->forward(x);
  EXPECT_TRUE(torch::allclose(want.policy, got.policy, 1e-5, 1e-5));
  EXPECT_TRUE(torch::allclose(want.wdl, got.wdl, 1e-5, 1e-5));
  // Any other version is refused, naming both.
  for (auto& [k, v] : h)
    if (k == "encoding_version") v = "3";
  save_tensor_bundle(path, h, t);
  try {
    load_model(path);
    ADD_FAILURE() << "encoding 3 loaded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("encoding version 3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("versions 1-2"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace jz
