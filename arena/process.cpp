#include "arena/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <mutex>
#include <thread>

#include "util/log.h"

extern char** environ;

namespace jz {

namespace {

// A dead child must not kill us through SIGPIPE when we write to it.
void ignore_sigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { signal(SIGPIPE, SIG_IGN); });
}

std::string describe(int status) {
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

}  // namespace

ChildProcess::~ChildProcess() { stop(0.2); }

bool ChildProcess::start(const std::vector<std::string>& argv, bool keep_stderr, std::string* error) {
  ignore_sigpipe();
  if (argv.empty()) {
    *error = "no program to start";
    return false;
  }
  // O_CLOEXEC: children started concurrently by other threads must not inherit these pipes.
  int to_child[2], from_child[2];
  if (pipe2(to_child, O_CLOEXEC) != 0) {
    *error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    *error = std::string("pipe: ") + std::strerror(errno);
    ::close(to_child[0]), ::close(to_child[1]);
    return false;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, to_child[0], 0);
  posix_spawn_file_actions_adddup2(&fa, from_child[1], 1);
  if (!keep_stderr) posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(to_child[0]);
  ::close(from_child[1]);
  if (rc != 0) {
    ::close(to_child[1]), ::close(from_child[0]);
    *error = "cannot start '" + argv[0] + "': " + std::strerror(rc);
    return false;
  }
  pid_ = pid;
  in_fd_ = to_child[1];
  out_fd_ = from_child[0];
  buffer_.clear();
  exit_status_.clear();
  return true;
}

bool ChildProcess::write_line(const std::string& line) {
  if (in_fd_ < 0) return false;
  std::string data = line + "\n";
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(in_fd_, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

ChildProcess::ReadStatus ChildProcess::read_line(std::string& line, double deadline) {
  for (;;) {
    size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      buffer_.erase(0, nl + 1);
      return ReadStatus::LINE;
    }
    if (out_fd_ < 0) return ReadStatus::CLOSED;
    double left = deadline - now_seconds();
    if (left <= 0) return ReadStatus::TIMEOUT;
    pollfd p{out_fd_, POLLIN, 0};
    int r = ::poll(&p, 1, int(std::min(left * 1000.0 + 1, 1e9)));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return ReadStatus::TIMEOUT;
    char buf[4096];
    ssize_t n = ::read(out_fd_, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) {
      // End of output: hand back a last unterminated line, if any, then report the close.
      ::close(out_fd_);
      out_fd_ = -1;
      if (!buffer_.empty()) {
        line.swap(buffer_);
        buffer_.clear();
        return ReadStatus::LINE;
      }
      return ReadStatus::CLOSED;
    }
    buffer_.append(buf, size_t(n));
  }
}

void ChildProcess::close_fds() {
  if (in_fd_ >= 0) ::close(in_fd_);
  if (out_fd_ >= 0) ::close(out_fd_);
  in_fd_ = out_fd_ = -1;
}

void ChildProcess::stop(double grace_seconds) {
  if (pid_ <= 0) {
    close_fds();
    return;
  }
  if (in_fd_ >= 0) ::close(in_fd_), in_fd_ = -1;  // EOF on stdin asks a well-behaved engine to quit
  int status = 0;
  double deadline = now_seconds() + grace_seconds;
  pid_t r;
  while ((r = waitpid(pid_, &status, WNOHANG)) == 0 && now_seconds() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (r == 0) {
    kill(pid_, SIGKILL);
    while ((r = waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {}
    exit_status_ = "killed (did not exit)";
  } else {
    exit_status_ = r > 0 ? describe(status) : "lost";
  }
  pid_ = -1;
  close_fds();
}

}  // namespace jz
