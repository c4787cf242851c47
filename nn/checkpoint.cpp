#include "nn/checkpoint.h"

#include <cstring>

#include "util/fileio.h"

namespace jz {
namespace {

const char* KIND = "janggi-zero-model";

int64_t to_int(const TensorBundle& b, const std::string& key, const std::string& path) {
  return bundle_header_int(b, key, path, "model file");
}

// Parameters then buffers, by their dotted module path.
NamedTensors model_tensors(JanggiNet& model) {
  NamedTensors out;
  for (auto& kv : model->named_parameters()) out.emplace_back(kv.key(), kv.value());
  for (auto& kv : model->named_buffers()) out.emplace_back(kv.key(), kv.value());
  return out;
}

ModelInfo check_header(const TensorBundle& b, const std::string& path) {
  const std::string* kind = b.find("kind");
  if (!kind || *kind != KIND) throw std::runtime_error(path + ": not a model file (kind is not '" + KIND + "')");
  int64_t version = to_int(b, "model_version", path);
  if (version != MODEL_FILE_VERSION)
    throw std::runtime_error(path + ": unsupported model file version " + std::to_string(version) +
                             " (this build reads " + std::to_string(MODEL_FILE_VERSION) + ")");
  int64_t enc = to_int(b, "encoding_version", path), planes = to_int(b, "num_planes", path),
          policy = to_int(b, "policy_size", path);
  if (enc != ENCODING_VERSION || planes != NUM_PLANES || policy != POLICY_SIZE)
    throw std::runtime_error(path + ": made for encoding version " + std::to_string(enc) + " (" + std::to_string(planes) +
                             " planes, " + std::to_string(policy) + " policy outputs); this build has version " +
                             std::to_string(ENCODING_VERSION) + " (" + std::to_string(NUM_PLANES) + ", " +
                             std::to_string(POLICY_SIZE) + ")");
  ModelInfo info;
  info.config.blocks = int(to_int(b, "blocks", path));
  info.config.filters = int(to_int(b, "filters", path));
  info.config.global_pool_every = int(to_int(b, "global_pool_every", path));
  info.config.head_channels = int(to_int(b, "head_channels", path));
  info.config.value_hidden = int(to_int(b, "value_hidden", path));
  const ModelConfig& c = info.config;
  if (c.blocks < 1 || c.blocks > 256 || c.filters < 1 || c.filters > 4096 || c.global_pool_every < 0 ||
      c.head_channels < 1 || c.head_channels > 4096 || c.value_hidden < 1 || c.value_hidden > 65536)
    throw std::runtime_error(path + ": implausible architecture " + c.describe());
  info.step = to_int(b, "step", path);
  const std::string* meta = b.find("metadata");
  info.metadata = meta ? *meta : "";
  return info;
}

void copy_weights(const TensorBundle& b, JanggiNet& model, const std::string& path) {
  NamedTensors dst = model_tensors(model);
  if (b.tensors.size() != dst.size())
    throw std::runtime_error(path + ": architecture mismatch (" + std::to_string(b.tensors.size()) +
                             " tensors in the file, the model has " + std::to_string(dst.size()) + ")");
  torch::NoGradGuard ng;
  for (auto& nt : dst) {
    const torch::Tensor* src = b.tensor(nt.first);
    if (!src) throw std::runtime_error(path + ": architecture mismatch (no tensor '" + nt.first + "')");
    if (src->sizes() != nt.second.sizes())
      throw std::runtime_error(path + ": architecture mismatch (tensor '" + nt.first + "' has shape " +
                               c10::str(src->sizes()) + ", the model needs " + c10::str(nt.second.sizes()) + ")");
    nt.second.copy_(*src);
  }
}

// Reads and verifies the bundle; *hash = its checksum (the last 8 bytes), a content hash for free.
TensorBundle read_bundle(const std::string& path, uint64_t* hash) {
  std::string bytes, err;
  if (!read_file(path, bytes, &err)) throw std::runtime_error(path + ": cannot read: " + err);
  TensorBundle b = parse_tensor_bundle(bytes, path);
  std::memcpy(hash, bytes.data() + bytes.size() - 8, 8);
  return b;
}

}  // namespace

void save_model(const std::string& path, JanggiNet& model, int64_t step, const std::string& metadata) {
  if (model->fused()) throw std::runtime_error(path + ": cannot save a model whose batch norms were fused");
  const ModelConfig& c = model->config();
  HeaderKV h = {{"kind", KIND},
                {"model_version", std::to_string(MODEL_FILE_VERSION)},
                {"encoding_version", std::to_string(ENCODING_VERSION)},
                {"num_planes", std::to_string(NUM_PLANES)},
                {"policy_size", std::to_string(POLICY_SIZE)},
                {"blocks", std::to_string(c.blocks)},
                {"filters", std::to_string(c.filters)},
                {"global_pool_every", std::to_string(c.global_pool_every)},
                {"head_channels", std::to_string(c.head_channels)},
                {"value_hidden", std::to_string(c.value_hidden)},
                {"step", std::to_string(step)},
                {"metadata", metadata}};
  NamedTensors t = model_tensors(model);
  for (auto& nt : t)  // a model cast to bf16/fp16 is still stored in fp32
    nt.second = nt.second.detach().to(torch::kCPU, nt.second.is_floating_point() ? torch::kFloat32
                                                                                  : nt.second.scalar_type());
  save_tensor_bundle(path, h, t);
}

ModelInfo read_model_info(const std::string& path) {
  uint64_t hash;
  TensorBundle b = read_bundle(path, &hash);
  ModelInfo info = check_header(b, path);
  info.hash = hash;
  return info;
}

JanggiNet load_model(const std::string& path, ModelInfo* info) {
  uint64_t hash;
  TensorBundle b = read_bundle(path, &hash);
  ModelInfo i = check_header(b, path);
  JanggiNet model(i.config);
  copy_weights(b, model, path);
  model->eval();
  if (info) {
    *info = i;
    info->hash = hash;
  }
  return model;
}

void load_model_into(const std::string& path, JanggiNet& model, ModelInfo* info) {
  uint64_t hash;
  TensorBundle b = read_bundle(path, &hash);
  ModelInfo i = check_header(b, path);
  if (i.config != model->config())
    throw std::runtime_error(path + ": architecture mismatch (file has " + i.config.describe() + ", expected " +
                             model->config().describe() + ")");
  copy_weights(b, model, path);
  if (info) {
    *info = i;
    info->hash = hash;
  }
}

void create_random_network(const std::string& path, const ModelConfig& cfg, uint64_t seed) {
  torch_init_threads();
  torch::manual_seed(seed);
  JanggiNet model(cfg);
  save_model(path, model, 0, "random init, seed " + std::to_string(seed));
}

}  // namespace jz
