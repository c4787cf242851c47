// Watching a soak test (`janggi-zero soak`): stall detection (memory and CPU time: util/process.h).
//
// Stalls: a watchdog thread reads every play thread's
// progress counter (SelfPlayWorker::thread_progress) and reports any thread whose counter has not moved
// for longer than a threshold. The run goes on; stalls are counted and end up in the soak summary.
//
// StallDetector is the logic alone, driven by explicit times, so tests can feed it fake counters and a
// fake clock; Watchdog is the thread that drives it with the steady clock.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace jz {

struct StallEvent {
  int worker = 0;
  double start = 0;     // the worker's last observed progress before the stall (detector clock, seconds)
  double duration = 0;  // without progress: so far for an ongoing stall, in total for an ended one
  bool ended = false;
};

class StallDetector {
 public:
  // A stall is more than threshold_seconds without any progress of one worker.
  explicit StallDetector(double threshold_seconds) : threshold_(threshold_seconds) {}

  // Feeds the workers' counters (index = worker) read at time `now` (non-decreasing between calls).
  // A worker's first reading only sets its baseline. Returns the stalls that began (crossed the
  // threshold) or ended (the counter moved again) at this call. Durations are exact to the interval
  // between calls: progress is only seen when it is observed.
  std::vector<StallEvent> observe(double now, const std::vector<uint64_t>& progress);

  // Longest time since a worker's last observed progress (0 before any reading).
  double max_idle(double now) const;
  int stall_count() const { return int(stalls_.size()); }
  // Longest stall so far, ongoing ones counted up to `now`.
  double longest_stall(double now) const;
  // Every stall so far, ongoing ones with their duration up to `now`.
  std::vector<StallEvent> stalls(double now) const;
  double threshold() const { return threshold_; }

 private:
  struct Worker {
    uint64_t value = 0;
    double last_change = 0;
    int open = -1;  // index into stalls_ of its ongoing stall, or -1
  };
  double threshold_;
  std::vector<Worker> workers_;
  std::vector<StallEvent> stalls_;
};

// Polls `progress` every poll_seconds on its own thread and feeds a StallDetector (steady clock,
// util/log.h now_seconds). `on_event` is called on that thread for every stall that begins or ends.
class Watchdog {
 public:
  using ProgressFn = std::function<std::vector<uint64_t>()>;
  using EventFn = std::function<void(const StallEvent&)>;
  Watchdog(ProgressFn progress, double threshold_seconds, double poll_seconds, EventFn on_event);
  ~Watchdog();  // stops

  void start();
  void stop();  // joins; the readings stay available, frozen at the time of the stop

  double max_idle() const;
  int stall_count() const;
  double longest_stall() const;
  std::vector<StallEvent> stalls() const;

 private:
  void run();
  double clock() const;  // now, or the stop time once stopped; mu_ held

  ProgressFn progress_;
  EventFn on_event_;
  double poll_seconds_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  double stop_time_ = 0;
  StallDetector detector_;  // guarded by mu_
  std::thread thread_;
};

}  // namespace jz
