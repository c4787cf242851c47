#include "util/process_stats.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "util/fileio.h"

namespace jz {

double self_cpu_seconds() {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double process_cpu_seconds(pid_t pid) {
  std::string text, err;
  if (pid <= 0 || !read_file("/proc/" + std::to_string(pid) + "/stat", text, &err)) return -1;
  // The command name (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
  size_t close = text.rfind(')');
  if (close == std::string::npos) return -1;
  unsigned long long utime = 0, stime = 0;
  // After ")": state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime(14) stime(15)
  if (std::sscanf(text.c_str() + close + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
                  &stime) != 2)
    return -1;
  long hz = sysconf(_SC_CLK_TCK);
  return double(utime + stime) / double(hz > 0 ? hz : 100);
}

}  // namespace jz
