#include "nn/checkpoint.h"

#include "util/fileio.h"

namespace jz {
namespace {

// Parameters then buffers, by their dotted module path.
NamedTensors model_tensors(JanggiNet& model) {
  NamedTensors out;
  for (auto& kv : model->named_parameters()) out.emplace_back(kv.key(), kv.value());
  for (auto& kv : model->named_buffers()) out.emplace_back(kv.key(), kv.value());
  return out;
}

void copy_weights(const TensorBundle& b, JanggiNet& model, const std::string& path, int encoding_version) {
  NamedTensors dst = model_tensors(model);
  if (b.tensors.size() != dst.size())
    throw std::runtime_error(path + ": architecture mismatch (" + std::to_string(b.tensors.size()) +
                             " tensors in the file, the model has " + std::to_string(dst.size()) + ")");
  torch::NoGradGuard ng;
  for (auto& nt : dst) {
    const torch::Tensor* src = b.tensor(nt.first);
    if (!src) throw std::runtime_error(path + ": architecture mismatch (no tensor '" + nt.first + "')");
    // An encoding-1 file: the input convolution lacks the last plane's weights; they stay zero.
    if (encoding_version == OLDEST_LOADABLE_ENCODING && nt.second.dim() == 4 && src->dim() == 4 &&
        src->size(1) == ENCODING_V1_PLANES && nt.second.size(1) == NUM_PLANES && src->size(0) == nt.second.size(0) &&
        src->size(2) == nt.second.size(2) && src->size(3) == nt.second.size(3)) {
      nt.second.zero_();
      nt.second.narrow(1, 0, ENCODING_V1_PLANES).copy_(*src);
      continue;
    }
    if (src->sizes() != nt.second.sizes())
      throw std::runtime_error(path + ": architecture mismatch (tensor '" + nt.first + "' has shape " +
                               c10::str(src->sizes()) + ", the model needs " + c10::str(nt.second.sizes()) + ")");
    nt.second.copy_(*src);
  }
}

// Reads and verifies the file and its header (before any tensor or model is allocated); info->hash =
// the stored checksum, a content hash for free. Tensors only if `tensors`.
TensorBundle read_bundle(const std::string& path, ModelInfo* info, bool tensors = true) {
  std::string bytes, err;
  if (!read_file(path, bytes, &err)) throw std::runtime_error(path + ": cannot read: " + err);
  RawBundle raw = parse_bundle(bytes, path);
  *info = check_model_header(raw.header, path);
  info->hash = raw.hash;
  return tensors ? to_tensor_bundle(raw) : TensorBundle();
}

}  // namespace

void save_model(const std::string& path, JanggiNet& model, int64_t step, const std::string& metadata) {
  if (model->fused()) throw std::runtime_error(path + ": cannot save a model whose batch norms were fused");
  HeaderKV h = model_file_header(model->config(), step, metadata);
  NamedTensors t = model_tensors(model);
  for (auto& nt : t)  // a model cast to bf16/fp16 is still stored in fp32
    nt.second =
        nt.second.detach().to(torch::kCPU, nt.second.is_floating_point() ? torch::kFloat32 : nt.second.scalar_type());
  save_tensor_bundle(path, h, t);
}

ModelInfo read_model_info(const std::string& path) {
  ModelInfo info;
  read_bundle(path, &info, false);
  return info;
}

JanggiNet load_model(const std::string& path, ModelInfo* info) {
  ModelInfo i;
  TensorBundle b = read_bundle(path, &i);
  JanggiNet model(i.config);
  copy_weights(b, model, path, i.encoding_version);
  model->eval();
  if (info) *info = i;
  return model;
}

void load_model_into(const std::string& path, JanggiNet& model, ModelInfo* info) {
  ModelInfo i;
  TensorBundle b = read_bundle(path, &i);
  if (i.config != model->config())
    throw std::runtime_error(path + ": architecture mismatch (file has " + i.config.describe() + ", expected " +
                             model->config().describe() + ")");
  copy_weights(b, model, path, i.encoding_version);
  if (info) *info = i;
}

void create_random_network(const std::string& path, const ModelConfig& cfg, uint64_t seed) {
  torch_init_threads();
  torch::manual_seed(seed);
  JanggiNet model(cfg);
  save_model(path, model, 0, "random init, seed " + std::to_string(seed));
}

}  // namespace jz
