// Processes: starting and stopping children, and what the kernel knows about a process (Linux
// /proc): CPU time and memory. CPU hours on the learning curve, the soak monitor, the trainer's
// self-play and evaluator children and UCI engines in the arena all use these.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace jz {

// User + system CPU seconds of this process (all threads).
double self_cpu_seconds();
// CPU seconds of the calling thread (CLOCK_THREAD_CPUTIME_ID).
double thread_cpu_seconds();
// User + system CPU seconds of a live process by pid; -1 if it cannot be read (gone, no /proc).
double process_cpu_seconds(pid_t pid);

// Resident set size now and its peak (VmRSS, VmHWM in /proc/self/status), in KiB.
struct ProcessMemory {
  long rss_kib = 0, hwm_kib = 0;
};
// Reads this process's memory; false (fields 0) where /proc cannot be read.
bool read_process_memory(ProcessMemory& out);
// Parses the text of a /proc/<pid>/status file; false unless both fields are there.
bool parse_proc_status(const std::string& text, ProcessMemory& out);

// A child process, started one of two ways:
// - logged: stdout and stderr appended to a log file, stdin from /dev/null, SIGTERM to the child if
//   we die (PR_SET_PDEATHSIG); stop() sends SIGTERM. For long-lived workers (the trainer's children).
// - piped: stdin and stdout on pipes for line I/O with deadlines; stop() closes stdin, which asks a
//   well-behaved engine to quit. For UCI engines.
// Either way stop() kills after a grace period and always reaps; the destructor stops.
class Subprocess {
 public:
  Subprocess() = default;
  ~Subprocess() { stop(piped() ? 0.2 : 5.0); }
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  // argv[0] must be a path. False with a reason if it cannot be started.
  bool start_logged(const std::vector<std::string>& argv, const std::string& log_path, std::string* error);
  // argv[0] is searched in PATH if it has no '/'; stderr goes to /dev/null unless keep_stderr.
  bool start_piped(const std::vector<std::string>& argv, bool keep_stderr, std::string* error);

  // Piped only: false if the child is gone (its stdin is closed).
  bool write_line(const std::string& line);
  enum class ReadStatus { LINE, TIMEOUT, CLOSED };
  // Piped only: one line (without the newline), waiting until the deadline (now_seconds() clock).
  ReadStatus read_line(std::string& line, double deadline);

  // True while it runs; once it has exited it is reaped and exit_status() says how.
  bool alive();
  // Asks the child to end (see above), waits up to grace seconds, then SIGKILL; reaps. No-op if not running.
  void stop(double grace_seconds);
  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  // How the child ended, e.g. "exit code 0", "killed by signal 11", "killed (did not exit)".
  const std::string& exit_status() const { return exit_status_; }

 private:
  bool piped() const { return piped_; }
  void reaped(int wstatus);
  void close_fds();
  pid_t pid_ = -1;
  int in_fd_ = -1, out_fd_ = -1;  // our ends: write to the child's stdin, read its stdout
  bool piped_ = false;
  std::string buffer_;
  std::string exit_status_;
};

}  // namespace jz
