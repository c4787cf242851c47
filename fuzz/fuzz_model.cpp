// Model files and trainer checkpoints: the tensor bundle container (nn/bundle_format.h) and both
// header checks (nn/model_header.h, training/checkpoint_header.h), all of the file reading that is
// not copying bytes into tensors. Every input is tried twice: as it is, and "repaired" (total size
// and checksum rewritten to match), because a mutated file almost never keeps a valid checksum and
// would otherwise stop at the first check. Refusals must name the file in one line; what is accepted
// must serialize back to the very same bytes.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "nn/bundle_format.h"
#include "nn/model_header.h"
#include "training/checkpoint_header.h"
#include "util/fileio.h"

namespace {

const std::string NAME = "fuzz.jzn";

void expect_message(const std::runtime_error& e) {
  std::string m = e.what();
  if (m.rfind(NAME + ": ", 0) != 0 || m.size() <= NAME.size() + 2 || m.find('\n') != std::string::npos)
    __builtin_trap();
}

void check(const std::string& bytes) {
  jz::RawBundle b;
  try {
    b = jz::parse_bundle(bytes, NAME);
  } catch (const std::runtime_error& e) {
    expect_message(e);
    return;
  }
  if (jz::serialize_bundle(b.header, b.tensors) != bytes) __builtin_trap();
  try {
    jz::ModelInfo info = jz::check_model_header(b.header, NAME);
    if (!info.config.plausible()) __builtin_trap();
  } catch (const std::runtime_error& e) {
    expect_message(e);
  }
  try {
    jz::CheckpointHeader h = jz::check_checkpoint_header(b.header, NAME);
    if (!h.config.plausible() || h.step < 0 || h.samples < 0) __builtin_trap();
    // What was read writes back to a header that reads the same.
    jz::CheckpointHeader again = jz::check_checkpoint_header(jz::make_checkpoint_header(h), NAME);
    if (again.config != h.config || again.step != h.step || again.extra != h.extra || again.seed != h.seed)
      __builtin_trap();
  } catch (const std::runtime_error& e) {
    expect_message(e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return 0;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  check(bytes);
  if (size >= 28) {  // magic, version, total size, checksum
    uint64_t total = size;
    std::memcpy(&bytes[12], &total, 8);
    uint64_t hash = jz::fnv1a64(bytes.data(), size - 8);
    std::memcpy(&bytes[size - 8], &hash, 8);
    check(bytes);
  }
  return 0;
}
