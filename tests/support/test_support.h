// Helpers shared by the test suites: temporary folders, whole-file reads, child processes, shell commands.
#pragma once
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace jz::test {

// A fresh empty folder under the system's temporary directory, removed with everything in it at the
// end of the scope. The name holds the tag, the pid and a per-process counter, so parallel test
// processes and several folders in one test never collide.
class TempDir {
 public:
  explicit TempDir(const std::string& tag = "test") {
    static std::atomic<int> counter{0};
    path = (std::filesystem::temp_directory_path() /
            ("jz_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
               .string();
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return path + "/" + name; }

  std::string path;
};

// The whole content of a file ("" if it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Starts argv[0] (a path) with argv, stdout to out_path and stderr to err_path (both truncated; the same
// path takes both); returns the child's pid, -1 if fork failed. The caller signals and reaps it.
inline pid_t spawn(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = err_path == out_path ? out : ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0) _exit(126);
    dup2(out, 1);
    dup2(err, 2);
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

// Runs a shell command; returns its exit code (-1 if it did not exit normally) with stdout and
// stderr together in *out.
inline int run_shell(const std::string& cmd, std::string* out) {
  out->clear();
  FILE* f = popen((cmd + " 2>&1").c_str(), "r");
  if (!f) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
  int st = pclose(f);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace jz::test
