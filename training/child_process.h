// A background child process (the local self-play worker): stdout and stderr go to a log file, it
// gets SIGTERM if we die (PR_SET_PDEATHSIG), and stop() always reaps it.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace jz {

class BackgroundProcess {
 public:
  BackgroundProcess() = default;
  ~BackgroundProcess() { stop(5.0); }
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;

  // argv[0] must be a path. False with a reason if it cannot be started.
  bool start(const std::vector<std::string>& argv, const std::string& log_path, std::string* error);
  // True while it runs; once it has exited, false and exit_status() says how.
  bool alive();
  // SIGTERM, wait up to grace seconds, then SIGKILL; reaps. No-op if not running.
  void stop(double grace_seconds);
  pid_t pid() const { return pid_; }
  const std::string& exit_status() const { return status_; }

 private:
  void reaped(int wstatus);
  pid_t pid_ = -1;
  std::string status_;
};

}  // namespace jz
