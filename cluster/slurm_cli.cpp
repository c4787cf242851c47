#include "cluster/slurm_cli.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace jz {

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string first_line(const std::string& s) {
  std::string t = trim(s);
  return t.substr(0, t.find('\n'));
}

}  // namespace

bool tool_in_path(const std::string& tool) {
  const char* path = std::getenv("PATH");
  std::istringstream is(path ? path : "");
  for (std::string dir; std::getline(is, dir, ':');) {
    std::string p = (dir.empty() ? "." : dir) + "/" + tool;
    struct stat st;
    if (stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(p.c_str(), X_OK) == 0) return true;
  }
  return false;
}

int run_command(const std::vector<std::string>& argv, std::string* out, std::string* err) {
  out->clear();
  err->clear();
  if (argv.empty()) return 127;
  int po[2], pe[2];
  if (pipe(po) != 0) return 127;
  if (pipe(pe) != 0) {
    close(po[0]), close(po[1]);
    return 127;
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {po[0], po[1], pe[0], pe[1]}) close(fd);
    return 127;
  }
  if (pid == 0) {
    dup2(po[1], 1), dup2(pe[1], 2);
    for (int fd : {po[0], po[1], pe[0], pe[1]}) close(fd);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    execvp(args[0], args.data());
    dprintf(2, "%s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(po[1]), close(pe[1]);
  pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
  std::string* sinks[2] = {out, err};
  int open_fds = 2;
  char buf[4096];
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, size_t(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        open_fds--;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 127;
}

std::string parse_sbatch_output(const std::string& out) {
  std::string id = first_line(out);
  id = id.substr(0, id.find(';'));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) return "";
  return id;
}

bool sbatch_submit(const std::string& script, std::string* job_id, std::string* error) {
  if (!tool_in_path("sbatch")) {
    *error = "sbatch not found in PATH (is Slurm installed on this node?)";
    return false;
  }
  std::string out, err;
  int rc = run_command({"sbatch", "--parsable", script}, &out, &err);
  *job_id = parse_sbatch_output(out);
  if (rc != 0 || job_id->empty()) {
    std::string why = first_line(err.empty() ? out : err);
    *error = "sbatch " + script + " failed (exit " + std::to_string(rc) + ")" + (why.empty() ? "" : ": " + why);
    return false;
  }
  return true;
}

std::vector<QueueEntry> parse_squeue_output(const std::string& out) {
  std::vector<QueueEntry> v;
  std::istringstream is(out);
  for (std::string line; std::getline(is, line);) {
    line = trim(line);
    if (line.empty()) continue;
    QueueEntry e;
    std::istringstream ls(line);
    std::getline(ls, e.id, '|');
    std::getline(ls, e.state, '|');
    std::getline(ls, e.elapsed, '|');
    std::getline(ls, e.reason);
    if (!e.id.empty() && !e.state.empty()) v.push_back(e);
  }
  return v;
}

bool squeue_all(std::vector<QueueEntry>* out, std::string* error) {
  if (!tool_in_path("squeue")) {
    *error = "Slurm not available (squeue not found in PATH)";
    return false;
  }
  std::string so, se;
  int rc = run_command({"squeue", "-h", "-a", "-r", "-o", "%i|%T|%M|%R"}, &so, &se);
  if (rc != 0) {
    *error = "squeue failed (exit " + std::to_string(rc) + "): " + first_line(se);
    return false;
  }
  *out = parse_squeue_output(so);
  return true;
}

std::vector<QueueEntry> entries_of(const std::vector<QueueEntry>& all, const std::string& id) {
  std::vector<QueueEntry> v;
  for (const QueueEntry& e : all)
    if (e.id == id || e.id.compare(0, id.size() + 1, id + "_") == 0) v.push_back(e);
  return v;
}

bool scancel_jobs(const std::vector<std::string>& ids, std::string* error) {
  if (ids.empty()) return true;
  if (!tool_in_path("scancel")) {
    *error = "scancel not found in PATH (is Slurm installed on this node?)";
    return false;
  }
  std::vector<std::string> argv = {"scancel"};
  argv.insert(argv.end(), ids.begin(), ids.end());
  std::string out, err;
  int rc = run_command(argv, &out, &err);
  if (rc != 0) {
    *error = "scancel failed (exit " + std::to_string(rc) + "): " + first_line(err);
    return false;
  }
  return true;
}

}  // namespace jz
