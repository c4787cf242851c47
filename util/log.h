// Minimal logging to stderr with a wall-clock timestamp; thread-safe, one line per call.
#pragma once
#include <string>

#include "util/clock.h"  // now_seconds(), which most users of the log also want

namespace jz {

void log_line(const std::string& msg);
#define JZ_LOG(...) ::jz::log_line(::jz::format_string(__VA_ARGS__))
std::string format_string(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace jz
