// A child process with its stdin/stdout on pipes (for UCI engines): line I/O with deadlines,
// and a kill that always reaps the child.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace jz {

class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Starts argv[0] (searched in PATH if it has no '/'); the child's stderr goes to /dev/null
  // unless keep_stderr. False + *error if it cannot be started.
  bool start(const std::vector<std::string>& argv, bool keep_stderr, std::string* error);
  // False if the child is gone (its stdin is closed).
  bool write_line(const std::string& line);
  enum class ReadStatus { LINE, TIMEOUT, CLOSED };
  // Reads one line (without the newline), waiting until the deadline (now_seconds() clock).
  ReadStatus read_line(std::string& line, double deadline);
  // Closes stdin, waits up to grace seconds for the child to exit, then kills it.
  void stop(double grace_seconds);
  bool running() const { return pid_ > 0; }
  // After stop(): how the child ended, e.g. "exit code 0", "killed by signal 11".
  const std::string& exit_status() const { return exit_status_; }

 private:
  void close_fds();
  pid_t pid_ = -1;
  int in_fd_ = -1, out_fd_ = -1;  // our ends: write to the child's stdin, read its stdout
  std::string buffer_;
  std::string exit_status_;
};

}  // namespace jz
