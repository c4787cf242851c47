// Config files (YAML subset): parse, read every key with every getter, dump and re-parse.
#include <cstdint>
#include <string>

#include "util/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::string text(reinterpret_cast<const char*>(data), size);
  jz::Config c;
  std::string err;
  if (!c.parse(text, "fuzz", &err)) {
    if (err.empty()) __builtin_trap();
    return 0;
  }
  for (auto& kv : c.values()) {
    try {
      c.get_int(kv.first, 0);
    } catch (const jz::ConfigError&) {}
    try {
      c.get_double(kv.first, 0);
    } catch (const jz::ConfigError&) {}
    try {
      c.get_bool(kv.first, false);
    } catch (const jz::ConfigError&) {}
    try {
      c.get_doubles(kv.first, {});
    } catch (const jz::ConfigError&) {}
  }
  for (const char* cmd : {"selfplay", "train"}) {
    std::string why;
    if (!c.check_sections(jz::config_sections_of(cmd), &why) && why.empty()) __builtin_trap();
  }
  jz::Config again;
  again.parse(c.dump(), "dump", &err);
  c.set_override(text, &err);
  return 0;
}
