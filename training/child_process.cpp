#include "training/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace jz {

bool BackgroundProcess::start(const std::vector<std::string>& argv, const std::string& log_path, std::string* error) {
  if (pid_ > 0) {
    if (error) *error = "already running";
    return false;
  }
  int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log < 0) {
    if (error) *error = "cannot open " + log_path + ": " + std::strerror(errno);
    return false;
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log);
    if (error) *error = std::string("fork failed: ") + std::strerror(errno);
    return false;
  }
  if (pid == 0) {  // child: only async-signal-safe calls until exec
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(127);  // the parent died before prctl
    ::dup2(log, 1);
    ::dup2(log, 2);
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    ::execv(args[0], args.data());
    const char msg[] = "exec failed\n";
    ssize_t ignored = ::write(2, msg, sizeof msg - 1);
    (void)ignored;
    ::_exit(127);
  }
  ::close(log);
  pid_ = pid;
  status_.clear();
  return true;
}

void BackgroundProcess::reaped(int ws) {
  if (WIFEXITED(ws)) status_ = "exit code " + std::to_string(WEXITSTATUS(ws));
  else if (WIFSIGNALED(ws)) status_ = "killed by signal " + std::to_string(WTERMSIG(ws));
  else status_ = "ended";
  pid_ = -1;
}

bool BackgroundProcess::alive() {
  if (pid_ <= 0) return false;
  int ws = 0;
  pid_t r = ::waitpid(pid_, &ws, WNOHANG);
  if (r == pid_) {
    reaped(ws);
    return false;
  }
  return true;
}

void BackgroundProcess::stop(double grace) {
  if (!alive()) return;
  ::kill(pid_, SIGTERM);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(grace);
  while (std::chrono::steady_clock::now() < deadline) {
    if (!alive()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid_, SIGKILL);
  int ws = 0;
  if (::waitpid(pid_, &ws, 0) == pid_) reaped(ws);
  else pid_ = -1;
}

}  // namespace jz
