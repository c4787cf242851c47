#include "util/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

#include "util/clock.h"
#include "util/fileio.h"

extern char** environ;

namespace jz {

double self_cpu_seconds() {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double thread_cpu_seconds() {
  timespec t{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

double process_cpu_seconds(pid_t pid) {
  std::string text, err;
  if (pid <= 0 || !read_file("/proc/" + std::to_string(pid) + "/stat", text, &err)) return -1;
  // The command name (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
  size_t close = text.rfind(')');
  if (close == std::string::npos) return -1;
  unsigned long long utime = 0, stime = 0;
  // After ")": state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime(14) stime(15)
  if (std::sscanf(text.c_str() + close + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) !=
      2)
    return -1;
  long hz = sysconf(_SC_CLK_TCK);
  return double(utime + stime) / double(hz > 0 ? hz : 100);
}

bool parse_proc_status(const std::string& text, ProcessMemory& out) {
  out = ProcessMemory{};
  bool rss = false, hwm = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    long v = 0;
    if (std::sscanf(line.c_str(), "VmRSS: %ld kB", &v) == 1)
      out.rss_kib = v, rss = true;
    else if (std::sscanf(line.c_str(), "VmHWM: %ld kB", &v) == 1)
      out.hwm_kib = v, hwm = true;
    pos = end + 1;
  }
  return rss && hwm;
}

bool read_process_memory(ProcessMemory& out) {
  std::string text, err;
  // /proc files report size 0; read_file streams them, which is what they need.
  if (!read_file("/proc/self/status", text, &err)) {
    out = ProcessMemory{};
    return false;
  }
  return parse_proc_status(text, out);
}

namespace {

// A dead child must not kill us through SIGPIPE when we write to it.
void ignore_sigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { signal(SIGPIPE, SIG_IGN); });
}

std::vector<char*> c_args(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  return args;
}

}  // namespace

bool Subprocess::start_logged(const std::vector<std::string>& argv, const std::string& log_path, std::string* error) {
  if (pid_ > 0) return *error = "already running", false;
  if (argv.empty()) return *error = "no program to start", false;
  int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log < 0) return *error = "cannot open " + log_path + ": " + std::strerror(errno), false;
  std::vector<char*> args = c_args(argv);
  pid_t parent = ::getpid();
  pid_t pid = ::fork();  // fork, not posix_spawn: the child must set its parent-death signal
  if (pid < 0) {
    ::close(log);
    return *error = std::string("fork failed: ") + std::strerror(errno), false;
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
  piped_ = false;
  exit_status_.clear();
  return true;
}

bool Subprocess::start_piped(const std::vector<std::string>& argv, bool keep_stderr, std::string* error) {
  ignore_sigpipe();
  if (pid_ > 0) return *error = "already running", false;
  if (argv.empty()) return *error = "no program to start", false;
  // O_CLOEXEC: children started concurrently by other threads must not inherit these pipes.
  int to_child[2], from_child[2];
  if (pipe2(to_child, O_CLOEXEC) != 0) return *error = std::string("pipe: ") + std::strerror(errno), false;
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    ::close(to_child[0]), ::close(to_child[1]);
    return *error = std::string("pipe: ") + std::strerror(errno), false;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, to_child[0], 0);
  posix_spawn_file_actions_adddup2(&fa, from_child[1], 1);
  if (!keep_stderr) posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args = c_args(argv);
  pid_t pid;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(to_child[0]);
  ::close(from_child[1]);
  if (rc != 0) {
    ::close(to_child[1]), ::close(from_child[0]);
    return *error = "cannot start '" + argv[0] + "': " + std::strerror(rc), false;
  }
  pid_ = pid;
  piped_ = true;
  in_fd_ = to_child[1];
  out_fd_ = from_child[0];
  buffer_.clear();
  exit_status_.clear();
  return true;
}

bool Subprocess::write_line(const std::string& line) {
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

Subprocess::ReadStatus Subprocess::read_line(std::string& line, double deadline) {
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

void Subprocess::reaped(int ws) {
  if (WIFEXITED(ws))
    exit_status_ = "exit code " + std::to_string(WEXITSTATUS(ws));
  else if (WIFSIGNALED(ws))
    exit_status_ = "killed by signal " + std::to_string(WTERMSIG(ws));
  else
    exit_status_ = "status " + std::to_string(ws);
  pid_ = -1;
}

bool Subprocess::alive() {
  if (pid_ <= 0) return false;
  int ws = 0;
  if (::waitpid(pid_, &ws, WNOHANG) == pid_) {
    reaped(ws);
    return false;
  }
  return true;
}

void Subprocess::close_fds() {
  if (in_fd_ >= 0) ::close(in_fd_);
  if (out_fd_ >= 0) ::close(out_fd_);
  in_fd_ = out_fd_ = -1;
}

void Subprocess::stop(double grace_seconds) {
  if (!alive()) {
    close_fds();
    return;
  }
  if (piped_) {
    if (in_fd_ >= 0) ::close(in_fd_), in_fd_ = -1;  // EOF on stdin asks a well-behaved engine to quit
  } else {
    ::kill(pid_, SIGTERM);
  }
  double deadline = now_seconds() + grace_seconds;
  while (now_seconds() < deadline) {
    if (!alive()) return close_fds();
    std::this_thread::sleep_for(std::chrono::milliseconds(piped_ ? 5 : 20));
  }
  ::kill(pid_, SIGKILL);
  int ws = 0;
  pid_t r;
  while ((r = ::waitpid(pid_, &ws, 0)) < 0 && errno == EINTR) {}
  if (piped_)
    exit_status_ = "killed (did not exit)", pid_ = -1;
  else if (r == pid_)
    reaped(ws);
  else
    exit_status_ = "lost", pid_ = -1;
  close_fds();
}

}  // namespace jz
